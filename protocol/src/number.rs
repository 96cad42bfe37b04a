//! The one checked path for every number a GUI or a user sends: clock times, increments,
//! depths, node counts, moves to go, option values, XBoard's `level` fields, FEN counters.
//! NaN, infinities, negatives, overflow, empty text and garbage come back as a
//! [`NumberError`] that the protocol writes in its own error form; nothing here panics.
//!
//! Values past a slot's sensible range are capped, not refused: a GUI that sends a clock of
//! 2^64 ms means "a lot of time", and every later computation (budgets, deadlines) stays
//! within `u64` arithmetic because the caps are far below it.

use std::time::Duration;

/// The longest clock time, increment or move time taken from a GUI (about 35 years):
/// larger values are capped here, so that sums and products of times cannot overflow.
pub const MAX_TIME_MS: u64 = 1 << 40;

/// Why a text is not the number a slot takes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NumberError {
    /// Nothing was given.
    Empty,
    /// Not a number at all (garbage, NaN, infinity).
    NotANumber(String),
    /// A negative value where only non-negative ones mean anything.
    Negative(String),
    /// Larger than the slot can hold even when capped (more digits than `u64` has).
    TooLarge(String),
}

impl std::fmt::Display for NumberError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NumberError::Empty => write!(f, "expected a number, got nothing"),
            NumberError::NotANumber(t) => write!(f, "expected a number, got `{t}`"),
            NumberError::Negative(t) => write!(f, "expected a number of at least 0, got `{t}`"),
            NumberError::TooLarge(t) => write!(f, "number too large: `{t}`"),
        }
    }
}

impl std::error::Error for NumberError {}

/// A whole number `0..=u64::MAX` written in decimal digits (a leading `+` allowed).
pub fn unsigned(text: &str) -> Result<u64, NumberError> {
    let t = text.trim();
    let digits = t.strip_prefix('+').unwrap_or(t);
    if t.is_empty() {
        return Err(NumberError::Empty);
    }
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(if t.starts_with('-') && is_number_like(&t[1..]) {
            NumberError::Negative(t.to_string())
        } else {
            NumberError::NotANumber(t.to_string())
        });
    }
    digits
        .parse::<u64>()
        .map_err(|_| NumberError::TooLarge(t.to_string()))
}

/// A whole number capped at `max` (values above it mean "as much as possible", even those
/// with more digits than `u64` holds).
pub fn capped(text: &str, max: u64) -> Result<u64, NumberError> {
    saturating(text).map(|n| n.min(max))
}

/// [`unsigned`], with a number too large for `u64` read as `u64::MAX`.
fn saturating(text: &str) -> Result<u64, NumberError> {
    match unsigned(text) {
        Err(NumberError::TooLarge(_)) => Ok(u64::MAX),
        other => other,
    }
}

/// A whole number of milliseconds, capped at [`MAX_TIME_MS`].
pub fn millis(text: &str) -> Result<Duration, NumberError> {
    capped(text, MAX_TIME_MS).map(Duration::from_millis)
}

/// A whole number of `unit_ms`-millisecond units (XBoard's centiseconds: 10), capped at
/// [`MAX_TIME_MS`] in all.
pub fn units(text: &str, unit_ms: u64) -> Result<Duration, NumberError> {
    let n = saturating(text)?;
    Ok(Duration::from_millis(
        n.saturating_mul(unit_ms).min(MAX_TIME_MS),
    ))
}

/// A decimal number of seconds (`5`, `0.5`, `1e3`), finite and not negative, capped at
/// [`MAX_TIME_MS`].
pub fn seconds(text: &str) -> Result<Duration, NumberError> {
    let t = text.trim();
    if t.is_empty() {
        return Err(NumberError::Empty);
    }
    // Only digits, one sign, a point and an exponent: `f64::from_str` would also take
    // `nan`, `inf` and `infinity`.
    if !is_number_like(t.strip_prefix(['-', '+']).unwrap_or(t)) {
        return Err(NumberError::NotANumber(t.to_string()));
    }
    let s: f64 = t
        .parse()
        .map_err(|_| NumberError::NotANumber(t.to_string()))?;
    // The text is digits, so an infinite reading is a number past `f64`'s range: capped.
    if s < 0.0 {
        return Err(NumberError::Negative(t.to_string()));
    }
    let ms = (s * 1000.0).min(MAX_TIME_MS as f64);
    Ok(Duration::from_millis(ms as u64))
}

/// XBoard's `level` base time: minutes (`5`, `0.5`) or minutes and seconds (`2:30`).
pub fn minutes_seconds(text: &str) -> Result<Duration, NumberError> {
    let t = text.trim();
    let (min, sec) = match t.split_once(':') {
        Some((m, s)) => (m, Some(s)),
        None => (t, None),
    };
    let min = seconds(min)?.saturating_mul(60);
    let sec = match sec {
        Some(s) if s.trim().is_empty() => return Err(NumberError::NotANumber(t.to_string())),
        Some(s) => seconds(s)?,
        None => Duration::ZERO,
    };
    Ok(min
        .saturating_add(sec)
        .min(Duration::from_millis(MAX_TIME_MS)))
}

/// Does `t` read as an unsigned decimal number (digits, at most one point, an optional
/// exponent with its own sign)?
fn is_number_like(t: &str) -> bool {
    let (mantissa, exponent) = match t.find(['e', 'E']) {
        Some(i) => (&t[..i], Some(&t[i + 1..])),
        None => (t, None),
    };
    let points = mantissa.bytes().filter(|&b| b == b'.').count();
    let digits = mantissa.bytes().filter(u8::is_ascii_digit).count();
    let mantissa_ok = points <= 1 && digits > 0 && digits + points == mantissa.len();
    let exponent_ok = exponent.is_none_or(|e| {
        let e = e.strip_prefix(['-', '+']).unwrap_or(e);
        !e.is_empty() && e.bytes().all(|b| b.is_ascii_digit())
    });
    mantissa_ok && exponent_ok
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_numbers_refuse_what_they_cannot_hold() {
        assert_eq!(unsigned("42"), Ok(42));
        assert_eq!(unsigned(" +7 "), Ok(7));
        assert_eq!(unsigned("18446744073709551615"), Ok(u64::MAX));
        assert!(matches!(
            unsigned("18446744073709551616"),
            Err(NumberError::TooLarge(_))
        ));
        assert!(matches!(unsigned("-1"), Err(NumberError::Negative(_))));
        assert!(matches!(unsigned("-"), Err(NumberError::NotANumber(_))));
        assert!(matches!(unsigned("+"), Err(NumberError::NotANumber(_))));
        assert!(matches!(unsigned("1.5"), Err(NumberError::NotANumber(_))));
        assert!(matches!(unsigned("nan"), Err(NumberError::NotANumber(_))));
        assert_eq!(unsigned(""), Err(NumberError::Empty));
        assert_eq!(capped("99999", 100), Ok(100));
        assert_eq!(capped("99999999999999999999999", 100), Ok(100));
        assert!(matches!(
            capped("-99999999999999999999999", 100),
            Err(NumberError::Negative(_))
        ));
    }

    #[test]
    fn times_are_capped_and_never_panic() {
        assert_eq!(millis("1500"), Ok(Duration::from_millis(1500)));
        assert_eq!(
            millis("18446744073709551615"),
            Ok(Duration::from_millis(MAX_TIME_MS))
        );
        assert_eq!(units("30", 10), Ok(Duration::from_millis(300)));
        assert_eq!(
            units("18446744073709551615", 10),
            Ok(Duration::from_millis(MAX_TIME_MS))
        );
        assert_eq!(seconds("0.5"), Ok(Duration::from_millis(500)));
        assert_eq!(seconds("1e308"), Ok(Duration::from_millis(MAX_TIME_MS)));
        assert_eq!(seconds("1e309"), Ok(Duration::from_millis(MAX_TIME_MS)));
        assert_eq!(
            seconds("-1e309"),
            Err(NumberError::Negative("-1e309".to_string()))
        );
        assert_eq!(
            millis("99999999999999999999999"),
            Ok(Duration::from_millis(MAX_TIME_MS))
        );
        for bad in [
            "nan", "NaN", "inf", "-inf", "infinity", "1..2", "e5", "5e", "0x10",
        ] {
            assert!(
                matches!(seconds(bad), Err(NumberError::NotANumber(_))),
                "{bad}"
            );
        }
        assert!(matches!(seconds("-1"), Err(NumberError::Negative(_))));
        assert_eq!(seconds("-0"), Ok(Duration::ZERO));
    }

    #[test]
    fn level_base_reads_minutes_and_seconds() {
        assert_eq!(minutes_seconds("5"), Ok(Duration::from_secs(300)));
        assert_eq!(minutes_seconds("2:30"), Ok(Duration::from_secs(150)));
        assert_eq!(minutes_seconds("0.5"), Ok(Duration::from_secs(30)));
        assert!(minutes_seconds("2:").is_err());
        assert!(minutes_seconds(":").is_err());
        assert!(minutes_seconds("nan:10").is_err());
        assert_eq!(
            minutes_seconds("1e300:1e300"),
            Ok(Duration::from_millis(MAX_TIME_MS))
        );
    }
}
