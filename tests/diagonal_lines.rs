//! Fairy-Stockfish's `diagonalLines` (elgam), its reading of lame leaps in its own piece
//! keys and its pawn-drop rules as Locust plays them (issue 44). The sections are Locust's
//! own; every expected move list is pyffish's (0.0.90, `legal_moves` after
//! `load_variant_config` of the same text) and every count the newest Fairy-Stockfish's
//! `go perft` with the same file as `VariantPath`; the reference generator counts too.
//! Elgam itself, with FSF's own section, is in fsf_ini_perft.rs and fsf_rules3.rs.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::{ini_variant, legal_as_reference};
use locust::engine::notation::{self, Dialect};

/// Lines through a1, c3, e5 and g7 (b2, d4's neighbour f6 are not on them) and d4, c5:
/// FSF's rook, wazir, soldier and janggi cannon move along them; a custom rook (`x`) and
/// the king do not. `y` is a wazir with a lame camel FSF has no table for.
const LINES: &str = "[lines8:chess]\ncastling = false\ndoubleStep = false\nwazir = w\n\
                     soldier = s\njanggiCannon = c\ncustomPiece1 = x:R\ncustomPiece2 = y:WnC\n\
                     diagonalLines = a1 c3 e5 g7 d4 c5\n";

/// The legal moves (UCI, as FSF writes them) that start with `prefix`, sorted.
fn moves_from(v: &variants::Variant, fen: &str, prefix: &str) -> Vec<String> {
    let mut pos = common::position_at(v, fen);
    let legal = legal_as_reference(&v.name, &mut pos, v);
    let uci = Dialect::Uci { chess960: false };
    let mut out: Vec<String> = (legal.iter())
        .map(|m| notation::write(&pos, m, uci))
        .filter(|t| t.starts_with(prefix))
        .collect();
    out.sort();
    out
}

/// Each case: FEN, the square (or drop prefix) whose moves are listed, pyffish's list, and
/// FSF's `go perft` at depths 1 to 3.
type Case<'a> = (&'a str, &'a str, &'a [&'a str], [u64; 3]);

fn check(v: &variants::Variant, cases: &[Case<'_>]) {
    for &(fen, from, want, perfts) in cases {
        assert_eq!(moves_from(v, fen, from), want, "{fen}");
        for (depth, want) in (1..).zip(perfts) {
            assert_eq!(
                common::perft_both(v, fen, depth),
                want,
                "{fen} depth {depth}"
            );
        }
    }
}

#[test]
fn fsf_types_move_along_the_lines() {
    let v = ini_variant(LINES);
    let rook_files = [
        "a1a2", "a1a3", "a1a4", "a1a5", "a1a6", "a1a7", "a1a8", "a1b1", "a1c1", "a1d1", "a1e1",
        "a1f1", "a1g1",
    ];
    // The rook slides as a bishop past b2 and f6 (off the lines) to c3, d4, e5 and g7.
    let mut rook: Vec<&str> = rook_files.to_vec();
    rook.extend(["a1c3", "a1d4", "a1e5", "a1g7"]);
    rook.sort();
    check(
        &v,
        &[
            ("1k6/8/8/8/8/8/8/R6K w - - 0 1", "a1", &rook, [20, 71, 1269]),
            // A man on b2 blocks the way; a custom `x:R` has no line moves.
            (
                "1k6/8/8/8/8/8/1p6/R6K w - - 0 1",
                "a1",
                &rook_files,
                [16, 129, 1583],
            ),
            (
                "1k6/8/8/8/8/8/8/X6K w - - 0 1",
                "a1",
                &rook_files,
                [16, 56, 913],
            ),
            // The rook on a1 checks g7 along the line: the knight on b8 cannot move.
            ("1n6/6k1/8/8/8/8/8/R6K b - - 0 1", "b8", &[], [8, 159, 1207]),
            (
                "k7/8/8/8/3W4/8/8/7K w - - 0 1",
                "d4",
                &["d4c3", "d4c4", "d4c5", "d4d3", "d4d5", "d4e4", "d4e5"],
                [10, 30, 273],
            ),
            (
                "k7/8/8/8/3S4/8/8/7K w - - 0 1",
                "d4",
                &["d4c4", "d4c5", "d4d5", "d4e4", "d4e5"],
                [8, 24, 189],
            ),
            (
                "k7/8/8/4s3/8/8/8/7K b - - 0 1",
                "e5",
                &["e5d4", "e5d5", "e5e4", "e5f5"],
                [7, 21, 165],
            ),
            // The cannon hops c3 to land on d4, e5 or g7; never over a cannon.
            (
                "k7/8/8/8/8/2P5/8/C6K w - - 0 1",
                "a1",
                &["a1d4", "a1e5", "a1g7"],
                [7, 21, 155],
            ),
            ("k7/8/8/8/8/2c5/8/C6K w - - 0 1", "a1", &[], [3, 9, 60]),
        ],
    );
    // A file's `king = k:W` is FSF's custom royal, not its janggi king of type wazir: it
    // has no line moves.
    let fen = "k7/8/8/8/3K4/8/8/8 w - - 0 1";
    let wazir_king = ini_variant(&format!(
        "{}king = k:W\nstartFen = {fen}\n",
        LINES.replace("[lines8:chess]", "[lines8k:chess]")
    ));
    let steps = ["d4c4", "d4d3", "d4d5", "d4e4"];
    check(&wazir_king, &[(fen, "d4", &steps, [4, 8, 32])]);
}

/// FSF's lame camel (`nC` in a `customPieceN`) gives no move: `y:WnC` is a wazir.
#[test]
fn lame_leaps_fsf_has_no_table_for_give_no_move() {
    let v = ini_variant(LINES);
    check(
        &v,
        &[(
            "k7/8/8/8/8/8/8/Y6K w - - 0 1",
            "a1",
            &["a1a2", "a1b1"],
            [5, 15, 108],
        )],
    );
    let y = &v.pieces[v.piece_by_letter('Y').unwrap() as usize];
    assert_eq!(y.betza, "W");
    // Locust's own key keeps XBetza's lame camel.
    let own = ini_variant("[own:chess]\npiece.camel = y:WnC\n");
    let y = &own.pieces[own.piece_by_letter('Y').unwrap() as usize];
    assert_eq!(y.betza, "WnC");
}

/// A man confined to a region (`mobilityRegion*`) ends its line moves in both: the rook on
/// a1 reaches c3 and e5 (lines in its region), passing d4 (a line, not in the region).
#[test]
fn confined_men_end_line_moves_in_their_region() {
    let text = format!(
        "{LINES}\n[lines8c:lines8]\nmobilityRegionWhiteRook = a1 a2 b1 b2 c3 e5\n\
         startFen = 1k6/8/8/8/8/8/8/R6K w - - 0 1\n"
    );
    let all = variants::load_str(&text, "test.ini").unwrap();
    let v = all.into_iter().find(|v| v.name == "lines8c").unwrap();
    check(
        &v,
        &[(
            "1k6/8/8/8/8/8/8/R6K w - - 0 1",
            "a1",
            &["a1a2", "a1b1", "a1c3", "a1e5"],
            [7, 35, 250],
        )],
    );
}

/// FSF bars the first and the last rank to drops of its `pawn` type only: a custom pawn
/// that promotes (`promotionPawnTypes`) may be dropped there.
#[test]
fn only_fsf_pawns_are_barred_from_the_back_ranks() {
    let fen = "4k3/8/8/8/8/8/8/4K3[Pp] w - - 0 1";
    let custom = ini_variant(
        "[house8:crazyhouse]\npawn = -\ncustomPiece1 = p:fmWfcF\npromotionPawnTypes = p\n",
    );
    let drops = moves_from(&custom, fen, "P@");
    let back: Vec<&String> = (drops.iter())
        .filter(|m| m.ends_with('1') || m.ends_with('8'))
        .collect();
    assert_eq!(back.len(), 14, "{back:?}");
    assert_eq!(drops.len(), 62);
    for (depth, want) in [(1, 67), (2, 4295), (3, 45318)] {
        assert_eq!(
            common::perft_both(&custom, fen, depth),
            want,
            "custom pawn depth {depth}"
        );
    }
    let crazyhouse = common::variant("crazyhouse");
    assert_eq!(moves_from(&crazyhouse, fen, "P@").len(), 48);
    for (depth, want) in [(1, 53), (2, 2654), (3, 28213)] {
        assert_eq!(
            common::perft_both(&crazyhouse, fen, depth),
            want,
            "crazyhouse depth {depth}"
        );
    }
}

/// What FSF's lines would do beside rules Locust does not model is refused by name.
#[test]
fn lines_beside_unmodelled_rules_are_refused() {
    let refused = |text: &str| {
        let e = variants::load_str(text, "t.ini").unwrap_err();
        assert!(e.iter().any(|e| e.key == "diagonalLines"), "{text}: {e:?}");
    };
    refused(&format!("{LINES}soldierPromotionRank = 4\n"));
    refused("[jl:janggi]\ndiagonalLines = d1 f1 e2 d3 f3\n");
    // Without a soldier, or at FSF's default rank, the key is honoured.
    assert!(variants::load_str(&format!("{LINES}soldierPromotionRank = 1\n"), "t.ini").is_ok());
}
