//! One byte per position: unknown or drawn, illegal, or a win or loss with its distance in
//! plies (to mate under DTM, to mate or conversion under DTC), seen from the side to move.

/// Unknown while building; a draw once the table is complete.
pub const DRAW: u8 = 0;
/// Not a position: two men on one square, or the side to move can capture a royal.
pub const ILLEGAL: u8 = 255;
/// The side to move has already won (the opponent is bare, or stalemated where that loses).
pub const WON_NOW: u8 = 254;
/// The deepest distance the solver assigns, in plies: a win in 250 or 251 plies, a loss in
/// 252 (126 moves).
pub const MAX_PLIES: u8 = 250;

// Codes 1..=253 hold `1 + plies`; a win has an odd number of plies and a loss an even one, so
// one byte spans 126 moves. The rare odd loss (every move lets the opponent win at once, as
// after a stalemate that wins for the stalemated side) is filed one ply longer.

/// The side to move loses in `plies` plies (0: it is mated now).
#[inline]
pub const fn loss(plies: u8) -> u8 {
    1 + plies + (plies & 1)
}

/// The side to move wins in `plies` plies.
#[inline]
pub const fn win(plies: u8) -> u8 {
    if plies == 0 {
        WON_NOW
    } else {
        2 + plies - (plies & 1)
    }
}

/// True for a win of the side to move: an even code but `DRAW` (the odd plies of
/// `2..=252`, and `WON_NOW`). Two operations: the solver's seeds and passes ask it of
/// every capture and pawn step they look up.
#[inline]
pub const fn is_win(code: u8) -> bool {
    code & 1 == 0 && code != DRAW
}

/// True for a loss of the side to move: an odd code but `ILLEGAL` (the even plies of
/// `1..=253`).
#[inline]
pub const fn is_loss(code: u8) -> bool {
    code & 1 == 1 && code != ILLEGAL
}

/// The distance in plies of a win or loss.
#[inline]
pub const fn plies(code: u8) -> u8 {
    if code == WON_NOW {
        0
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

/// [`describe`] without the distance: win, loss or draw (the WDL metric's answer).
pub fn describe_wdl(code: u8) -> String {
    match code {
        ILLEGAL | DRAW => describe(code),
        c if plies(c) == 0 => describe(code),
        c if is_win(c) => "win".to_string(),
        _ => "loss".to_string(),
    }
}

/// The code of the position after a move, seen from the side that made it.
pub fn from_mover(code: u8) -> u8 {
    match code {
        c if is_loss(c) => win(plies(c) + 1),
        c if is_win(c) => loss(plies(c) + 1),
        ILLEGAL => ILLEGAL,
        _ => DRAW,
    }
}

/// The better of two codes for the side to move (`a` when they are as good).
pub fn better(a: u8, b: u8) -> u8 {
    if goodness(b) > goodness(a) {
        b
    } else {
        a
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Every byte is a draw, illegal, a win or a loss, by the codes' layout (`1 + plies`
    /// in `1..=253`, a win's plies odd, a loss's even, and `WON_NOW`); `win` and `loss`
    /// give codes of their kind with their distance.
    #[test]
    fn every_code_is_one_kind() {
        for code in 0..=u8::MAX {
            let layout_win = code == WON_NOW || ((1..=253).contains(&code) && (code - 1) % 2 == 1);
            let layout_loss = (1..=253).contains(&code) && (code - 1) % 2 == 0;
            assert_eq!(is_win(code), layout_win, "code {code}");
            assert_eq!(is_loss(code), layout_loss, "code {code}");
            let kinds = [code == DRAW, code == ILLEGAL, is_win(code), is_loss(code)];
            assert_eq!(kinds.iter().filter(|&&k| k).count(), 1, "code {code}");
        }
        for p in 0..=MAX_PLIES {
            // A win's distance rounds up to odd plies (0: won now), a loss's to even.
            let odd = if p == 0 { 0 } else { p | 1 };
            assert!(is_win(win(p)) && plies(win(p)) == odd, "win in {p}");
            assert!(
                is_loss(loss(p)) && plies(loss(p)) == p + p % 2,
                "loss in {p}"
            );
        }
    }
}
