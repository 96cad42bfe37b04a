//! USI, the shogi GUIs' protocol, as a dialect of the UCI adapter: SFEN positions, shogi
//! square names (files numbered from the right, ranks lettered from the top: `7g7f`, drops
//! `P*5e`, promotion `+`), sente (`b`) as the side that moves first, and `byoyomi`.

/// The first player in USI (sente, `b`) is the engine's White.
pub const SENTE_INDEX: usize = 0;

/// One engine square (`e5`, `j10`) at the start of `text`: file letter, rank number.
fn engine_square(text: &[u8]) -> Option<(u8, u8, usize)> {
    let file = *text.first()?;
    if !file.is_ascii_lowercase() {
        return None;
    }
    let digits = text[1..].iter().take_while(|c| c.is_ascii_digit()).count();
    if digits == 0 || digits > 2 {
        return None;
    }
    let rank: u8 = std::str::from_utf8(&text[1..1 + digits])
        .ok()?
        .parse()
        .ok()?;
    Some((file - b'a', rank.checked_sub(1)?, 1 + digits))
}

/// One USI square (`7g`, `10a` on boards wider than nine files) at the start of `text`.
fn usi_square(text: &[u8]) -> Option<(u8, u8, usize)> {
    let digits = text.iter().take_while(|c| c.is_ascii_digit()).count();
    if digits == 0 || digits > 2 {
        return None;
    }
    let file: u8 = std::str::from_utf8(&text[..digits]).ok()?.parse().ok()?;
    let rank = *text.get(digits)?;
    if !rank.is_ascii_lowercase() {
        return None;
    }
    Some((file, rank - b'a', digits + 1))
}

/// Engine move text (`c3c4`, `b2h8+`, `P@e5`) in USI (`7g7f`, `8h2b+`, `P*5e`).
pub fn to_usi(text: &str, files: u8, ranks: u8) -> String {
    let bytes = text.as_bytes();
    let mut out = String::new();
    let mut i = 0;
    while i < bytes.len() {
        match engine_square(&bytes[i..]) {
            Some((f, r, len)) if f < files && r < ranks => {
                out.push_str(&format!(
                    "{}{}",
                    files - f,
                    (b'a' + (ranks - 1 - r)) as char
                ));
                i += len;
            }
            _ => {
                out.push(if bytes[i] == b'@' {
                    '*'
                } else {
                    bytes[i] as char
                });
                i += 1;
            }
        }
    }
    out
}

/// USI move text in the engine's notation, or `None` when a square is off the board.
pub fn from_usi(text: &str, files: u8, ranks: u8) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = String::new();
    let mut i = 0;
    while i < bytes.len() {
        if let Some((f, r, len)) = usi_square(&bytes[i..]) {
            if f == 0 || f > files || r >= ranks {
                return None;
            }
            out.push((b'a' + (files - f)) as char);
            out.push_str(&(ranks - r).to_string());
            i += len;
        } else {
            out.push(if bytes[i] == b'*' {
                '@'
            } else {
                bytes[i] as char
            });
            i += 1;
        }
    }
    Some(out)
}

/// An SFEN (`board side hands [move number]`) as the engine's FEN: the same board rows, the
/// side letter swapped (sente `b` moves first, as the engine's White does), hands counted
/// out (`2P3p` becomes `[PPppp]`).
pub fn sfen_to_fen(words: &[&str]) -> Result<String, String> {
    let [board, side, hands, rest @ ..] = words else {
        return Err("expected `sfen <board> <b|w> <hands> [move number]`".into());
    };
    let side = match *side {
        "b" => "w",
        "w" => "b",
        s => return Err(format!("side to move must be `b` or `w`, got `{s}`")),
    };
    let mut held = String::new();
    if *hands != "-" {
        let mut count = 0usize;
        for c in hands.chars() {
            if let Some(d) = c.to_digit(10) {
                count = count * 10 + d as usize;
                if count > 99 {
                    return Err(format!("hand count too large in `{hands}`"));
                }
            } else if c.is_ascii_alphabetic() {
                held.extend(std::iter::repeat_n(c, count.max(1)));
                count = 0;
            } else {
                return Err(format!("unexpected `{c}` in hands `{hands}`"));
            }
        }
    }
    let ply = match rest.first() {
        Some(n) => protocol::number::unsigned(n).map_err(|e| format!("move number: {e}"))?,
        None => 1,
    };
    let number = ply.div_ceil(2).max(1);
    Ok(format!("{board}[{held}] {side} - - 0 {number}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_convert_both_ways_on_nine_by_nine() {
        assert_eq!(to_usi("c3c4", 9, 9), "7g7f");
        assert_eq!(to_usi("b2h8+", 9, 9), "8h2b+");
        assert_eq!(to_usi("P@e5", 9, 9), "P*5e");
        assert_eq!(from_usi("7g7f", 9, 9).as_deref(), Some("c3c4"));
        assert_eq!(from_usi("8h2b+", 9, 9).as_deref(), Some("b2h8+"));
        assert_eq!(from_usi("P*5e", 9, 9).as_deref(), Some("P@e5"));
        assert_eq!(from_usi("0a1a", 9, 9), None);
        assert_eq!(from_usi("9j1a", 9, 9), None);
        assert_eq!(to_usi("e1e2", 5, 5), "1e1d");
    }

    #[test]
    fn sfen_becomes_fen() {
        let start = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL";
        assert_eq!(
            sfen_to_fen(&[start, "b", "-", "1"]).as_deref(),
            Ok(format!("{start}[] w - - 0 1").as_str())
        );
        assert_eq!(
            sfen_to_fen(&["9/9/9/9/4k4/9/9/9/4K4", "w", "2P3pG", "24"]).as_deref(),
            Ok("9/9/9/9/4k4/9/9/9/4K4[PPpppG] b - - 0 12")
        );
        assert!(sfen_to_fen(&["9", "x", "-"]).is_err());
        assert!(sfen_to_fen(&["9", "b"]).is_err());
        assert!(sfen_to_fen(&["9", "b", "P?"]).is_err());
    }
}
