//! Fairy-Stockfish's reading of the Betza in its own piece keys (`customPieceN = x:betza`,
//! `king = k:betza`) where it differs from XBetza's. FSF plays a lame (`n`) leap only where
//! it has a lame-leaper table: the lame dabbaba (`nD`), the horse (`nN`), the elephant
//! (`nA`) and the janggi elephant (`nZ`, also written `nJ`). Any other lame leap (`nC`,
//! `nW`, `nH`, `nK`, ...) gives its man no move at all, and `n` on a rider (`nNN`) is
//! ignored (the rider is not lame). The loader rewrites such a description to what FSF
//! plays, so that the engine, the reference generator and the printed XBetza agree with it;
//! Locust's own keys (`piece.NAME`) keep XBetza's meaning (`nC` is a lame camel there).

use crate::xbetza::{self, Atom, Betza, Letter, Mods, Move, Range};

/// The leaps FSF has lame-leaper tables for.
const FSF_LAME_LEAPS: [Letter; 4] = [Letter::D, Letter::N, Letter::A, Letter::Z];

/// The description as FSF plays it, or `None` when FSF reads it as XBetza does (or it does
/// not parse: the compiler reports that).
pub fn as_fsf_plays(betza: &str) -> Option<String> {
    let mut parsed: Betza = xbetza::parse(betza).ok()?;
    let mut changed = false;
    parsed.moves.retain_mut(|m| {
        let kept = fsf_move(m);
        changed |= !matches!(kept, Fsf::Same);
        !matches!(kept, Fsf::Dropped)
    });
    changed.then(|| xbetza::print(&parsed))
}

/// What FSF makes of one move.
enum Fsf {
    /// Played as written.
    Same,
    /// Played without its `n` (a rider).
    NotLame,
    /// Not played at all (a lame leap FSF has no table for).
    Dropped,
}

/// FSF's reading of one move. Only single-leg moves are FSF's (it has no `a`).
fn fsf_move(m: &mut Move) -> Fsf {
    let [leg] = m.legs.as_mut_slice() else {
        return Fsf::Same;
    };
    if !leg.mods.any(Mods::N) {
        return Fsf::Same;
    }
    let leaper = m.range == Range::Limited(1);
    match m.atom {
        Atom::Leap(l) if leaper && FSF_LAME_LEAPS.contains(&l) => Fsf::Same,
        Atom::Leap(_) | Atom::King if leaper => Fsf::Dropped,
        Atom::Leap(_) | Atom::King | Atom::Queen => {
            leg.mods.0 &= !Mods::N;
            Fsf::NotLame
        }
        // A leap vector or castling is not FSF's notation: left to XBetza's reading.
        Atom::Vector(..) | Atom::Castle => Fsf::Same,
    }
}

#[cfg(test)]
mod tests {
    use super::as_fsf_plays;

    #[test]
    fn lame_leaps_fsf_has_no_table_for_are_dropped() {
        assert_eq!(as_fsf_plays("nC").as_deref(), Some(""));
        assert_eq!(as_fsf_plays("WnC").as_deref(), Some("W"));
        assert_eq!(as_fsf_plays("nWnFnK").as_deref(), Some(""));
        assert_eq!(as_fsf_plays("fnHbN").as_deref(), Some("bN"));
    }

    #[test]
    fn fsf_lame_leaps_and_plain_betza_are_kept() {
        for betza in [
            "nN",
            "nA",
            "nD",
            "nZ",
            "nJ",
            "mfWcfFfhmnN",
            "KifmnD",
            "RcpR",
            "nC(",
        ] {
            assert_eq!(as_fsf_plays(betza), None, "{betza}");
        }
    }

    #[test]
    fn n_on_a_rider_is_ignored() {
        assert_eq!(as_fsf_plays("nNN").as_deref(), Some("N0"));
        assert_eq!(as_fsf_plays("fnD3").as_deref(), Some("fD3"));
    }
}
