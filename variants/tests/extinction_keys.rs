//! The keys of the games without royals and the losing games (issue 44): extinction of men
//! (`extinctionValue`, `extinctionPieceTypes` with `*`, `extinctionPieceCount`,
//! `extinctionOpponentPieceCount`), `mustCapture` and `stalematePieceCount` compile into
//! the rules; a royal-less game needs a way to be won; a lopsided piece is refused.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use variants::load::load_str;
use variants::rules::{Outcome, Royalty};

fn one(text: &str) -> variants::Variant {
    load_str(text, "t.ini").unwrap().remove(0)
}

#[test]
fn all_men_extinction_compiles() {
    let v = one(
        "[t:chess]\nking = -\ncommoner = k\ncastlingKingPiece = k\nextinctionValue = win\n\
         extinctionPieceTypes = *\nmustCapture = true\nstalematePieceCount = true\n",
    );
    let e = v.end.extinction.as_ref().unwrap();
    assert_eq!(e.value, Outcome::Win);
    assert!(e.all_men && e.types.is_empty());
    assert_eq!((e.count, e.opponent_count), (0, 0));
    assert!(v.end.must_capture && v.end.stalemate_piece_count);
    assert!(!v.pieces.iter().any(|p| p.royal));
}

#[test]
fn typed_extinction_with_counts_compiles() {
    let v = one(
        "[t:chess]\nking = -\ncommoner = k\ncastlingKingPiece = k\nextinctionValue = loss\n\
         extinctionPieceTypes = kq\nextinctionPieceCount = 1\nextinctionOpponentPieceCount = 2\n",
    );
    let e = v.end.extinction.as_ref().unwrap();
    let k = v.piece_by_letter('k').unwrap();
    let q = v.piece_by_letter('q').unwrap();
    assert_eq!(e.types, vec![k, q]);
    assert!(!e.all_men);
    assert_eq!((e.count, e.opponent_count), (1, 2));
    assert!(!v.end.must_capture && !v.end.stalemate_piece_count);
}

/// A winning extinction down to one man (losers) is not the bare-king rule, which stays
/// the losing one (shatranj); pseudo-royal extinction stays royalty (atomic).
#[test]
fn bare_king_and_pseudo_royalty_keep_their_rules() {
    let losers = one(
        "[t:chess]\nextinctionValue = win\nextinctionPieceTypes = *\nextinctionPieceCount = 1\n",
    );
    assert!(!losers.end.bare_king_loses);
    assert_eq!(losers.end.extinction.as_ref().unwrap().count, 1);
    let all = variants::builtins().unwrap();
    let shatranj = variants::find(&all, "shatranj").unwrap();
    assert!(shatranj.end.bare_king_loses && shatranj.end.extinction.is_none());
    let atomic = variants::find(&all, "atomic").unwrap();
    assert!(atomic.end.extinction.is_none());
    let chess = variants::find(&all, "chess").unwrap();
    assert!(chess.end.extinction.is_none() && !chess.end.must_capture);
}

#[test]
fn a_royal_less_game_needs_a_way_to_be_won() {
    let text = "[t:chess]\nking = -\ncommoner = k\ncastlingKingPiece = k\n";
    let e = load_str(text, "t.ini").unwrap_err();
    assert!(e[0].message.contains("no royal piece"), "{}", e[0]);
    let v = one(&format!("{text}stalemateValue = loss\n"));
    assert_eq!(v.end.stalemate, Outcome::Loss);
    // Material counting decides the stalemate's draw (FSF's capturethequeen).
    let v = one(&format!("{text}materialCounting = blackdrawodds\n"));
    assert!(v.end.material_counting.is_some());
}

/// FSF's pseudo-royal men are royal only while a side has at most
/// `extinctionPieceCount` + 1 of them: with a count of 0 that is `royalty = last` when each side's royal men are
/// of one type for good (maharajah2); any other start with more is refused by name.
#[test]
fn pseudo_royal_men_beyond_the_count_follow_fsf_or_are_refused() {
    let two = "[t:chess]\ncustomPiece1 = m:QN\nextinctionValue = loss\n\
               extinctionPieceTypes = m\nextinctionPseudoRoyal = true\n\
               startFen = 3mm3/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1\n";
    assert_eq!(one(two).end.royalty, Royalty::Last);
    let refused = |text: &str, why: &str| {
        let e = load_str(text, "t.ini").unwrap_err();
        assert!(
            e[0].key == "extinctionPseudoRoyal" && e[0].message.contains(why),
            "{e:?}"
        );
    };
    // A count of 1: FSF's rule is not Locust's `last` there.
    refused(&format!("{two}extinctionPieceCount = 1\nstartFen = 2mmm3/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1\n"), "count of 0 only");
    // White's king and a pseudo-royal man: two royal types on one side.
    refused(
        &format!("{two}startFen = 3mm3/8/8/8/8/8/PPPPPPPP/RNBQKBNM w Q - 0 1\n"),
        "two types",
    );
    // A pawn may promote into the royal type.
    refused(
        &format!("{two}promotionPieceTypes = mq\n"),
        "promote into a royal type",
    );
}

#[test]
fn a_piece_moving_differently_left_and_right_turns_black_half_round() {
    // FSF's keys: Black's men are White's turned half round, as FSF plays them.
    assert!(one("[t:chess]\ncustomPiece1 = a:mfWrW\n").black_rotated);
    assert!(!one("[t:chess]\ncustomPiece1 = a:mfWsW\n").black_rotated);
    assert!(one("[t:chess]\nblackRotated = true\ncustomPiece1 = a:mfWrW\n").black_rotated);
    // Our own `piece.NAME` keys define moves in Locust's convention: mirrored.
    assert!(!one("[t:chess]\npiece.raider = x:mfWrW\n").black_rotated);
    // Both readings at once, or FSF's piece with `blackRotated = false`: refused by name.
    for text in [
        "[t:chess]\ncustomPiece1 = a:mfWrW\npiece.raider = x:mfWrW\n",
        "[t:chess]\nblackRotated = false\ncustomPiece1 = a:mfWrW\n",
    ] {
        let e = load_str(text, "t.ini").unwrap_err();
        assert!(e[0].message.contains("to its left and right"), "{}", e[0]);
    }
}
