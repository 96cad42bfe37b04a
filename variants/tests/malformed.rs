//! Malformed variant files: each must give one specific error (line, key, message), and
//! none may panic.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use variants::load_str;

/// A small valid base the cases modify.
const BASE: &str = "[v]\npawn = p\nknight = n\nbishop = b\nrook = r\nqueen = q\nking = k\n";

/// Loads `text`, expects failure, and checks that some error has this line, key and message.
fn expect(text: &str, line: usize, key: &str, message: &str) {
    let errors = load_str(text, "t.ini").expect_err("should fail");
    let hit = errors
        .iter()
        .any(|e| e.line == line && e.key == key && e.message.contains(message));
    assert!(hit, "wanted {line}: {key}: *{message}*, got {errors:#?}");
    for e in &errors {
        assert!(e.to_string().starts_with("t.ini:"), "{e}");
    }
}

fn with(extra: &str) -> String {
    format!("{BASE}{extra}\n")
}

#[test]
fn base_is_valid() {
    assert_eq!(load_str(BASE, "t.ini").unwrap().len(), 1);
}

#[test]
fn bad_xbetza_in_custom_piece() {
    expect(
        &with("customPiece1 = x:QQ9z"),
        8,
        "customPiece1",
        "bad XBetza",
    );
}

#[test]
fn xbetza_too_large_to_compile() {
    // Three legs of 7-step queen moves on 8x8 would need 137,256 nodes (ids are 16 bits).
    expect(
        &with("customPiece1 = x:WmamaQ"),
        8,
        "customPiece1",
        "column 2: move too large to compile",
    );
}

#[test]
fn custom_piece_without_betza() {
    expect(&with("customPiece1 = x"), 8, "customPiece1", "letter:betza");
}

#[test]
fn custom_piece_slot_out_of_range() {
    expect(&with("customPiece99 = x:W"), 8, "customPiece99", "slots");
}

#[test]
fn unknown_key() {
    expect(&with("fooBar = 3"), 8, "fooBar", "unknown key");
}

#[test]
fn bad_bool() {
    expect(&with("castling = maybe"), 8, "castling", "true or false");
}

#[test]
fn bad_integer() {
    expect(&with("nMoveRule = fifty"), 8, "nMoveRule", "whole number");
}

#[test]
fn bad_outcome() {
    expect(
        &with("stalemateValue = sometimes"),
        8,
        "stalemateValue",
        "win, loss or draw",
    );
}

#[test]
fn cyclic_inheritance() {
    let text = "[a:b]\nking = k\n[b:a]\nking = k\n";
    expect(text, 1, "a", "cyclic inheritance: a -> b -> a");
}

#[test]
fn unknown_parent() {
    expect("[a:nosuch]\n", 1, "a", "unknown parent variant `nosuch`");
}

#[test]
fn duplicate_section() {
    let text = format!("{BASE}[v]\nking = k\n");
    expect(&text, 8, "v", "duplicate section");
}

/// A key set twice in a section takes its later value, as Fairy-Stockfish reads it.
#[test]
fn duplicate_key_takes_the_later_value() {
    let v = load_str(&with("castling = true\ncastling = false"), "t.ini").unwrap();
    assert!(v[0].castling.is_none());
    let v = load_str(&with("castling = false\ncastling = true"), "t.ini").unwrap();
    assert!(v[0].castling.is_some());
}

#[test]
fn board_too_large() {
    expect(&with("maxFile = 17"), 8, "maxFile", "1 to 16");
}

#[test]
fn bad_max_rank() {
    expect(&with("maxRank = x"), 8, "maxRank", "rank number");
}

#[test]
fn missing_royal() {
    let text = "[v]\npawn = p\nrook = r\nstartFen = 8/8/8/8/8/8/8/R7 w - - 0 1\n";
    expect(text, 1, "king", "no royal piece");
}

#[test]
fn fen_wrong_rank_count() {
    expect(
        &with("startFen = 8/8/8/k7/8/8/K7 w - - 0 1"),
        8,
        "startFen",
        "7 ranks, expected 8",
    );
}

#[test]
fn fen_unknown_letter() {
    let fen = "startFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNZ w - - 0 1";
    expect(&with(fen), 8, "startFen", "unknown piece `z`");
}

#[test]
fn fen_too_many_files() {
    let fen = "startFen = rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1";
    expect(&with(fen), 8, "startFen", "more than 8 files");
}

#[test]
fn fen_too_few_files() {
    let fen = "startFen = rnbqkbnr/pppppppp/7/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1";
    expect(&with(fen), 8, "startFen", "has 7 files");
}

#[test]
fn fen_bad_side() {
    let fen = "startFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x - - 0 1";
    expect(&with(fen), 8, "startFen", "side to move");
}

#[test]
fn fen_unknown_piece_in_hand() {
    let fen = "startFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Z] w - - 0 1";
    expect(&with(fen), 8, "startFen", "in holdings");
}

#[test]
fn fen_side_without_royal() {
    let fen = "startFen = rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1";
    expect(&with(fen), 8, "startFen", "Black has no royal");
}

#[test]
fn unknown_zone() {
    expect(
        &with("confine = k:castle"),
        8,
        "confine",
        "unknown zone `castle`",
    );
}

#[test]
fn unknown_zone_in_zone_moves() {
    expect(
        &with("zoneMoves = p:nowhere:sW"),
        8,
        "zoneMoves",
        "unknown zone `nowhere`",
    );
}

#[test]
fn bad_zone_move_syntax() {
    expect(
        &with("zoneMoves = p:sW"),
        8,
        "zoneMoves",
        "piece:zone:betza",
    );
}

#[test]
fn bad_square_in_zone() {
    expect(
        &with("zone.palace = d1-r3"),
        8,
        "zone.palace",
        "bad square `d1-r3`",
    );
}

#[test]
fn promotion_to_unknown_piece() {
    expect(
        &with("promotionPieceTypes = qz"),
        8,
        "promotionPieceTypes",
        "unknown piece `z`",
    );
}

#[test]
fn promoted_piece_type_unknown() {
    expect(
        &with("promotedPieceType = p:x"),
        8,
        "promotedPieceType",
        "unknown promoted piece",
    );
}

#[test]
fn plus_form_without_base() {
    expect(
        &with("piece.ghost = +x:W"),
        8,
        "piece.ghost",
        "no base piece",
    );
}

#[test]
fn duplicate_letter() {
    expect(
        &with("commoner = n"),
        8,
        "commoner",
        "already used by knight",
    );
}

#[test]
fn leave_behind_unknown() {
    expect(
        &with("leaveBehind = p:x"),
        8,
        "leaveBehind",
        "unknown piece `x`",
    );
}

#[test]
fn no_capture_bad_pair() {
    expect(&with("noCapture = q"), 8, "noCapture", "`x:y` pairs");
}

#[test]
fn range_jump_needs_rank() {
    expect(&with("rangeJump = q"), 8, "rangeJump", "needs a jumpRank");
}

#[test]
fn bad_royalty() {
    expect(
        &with("royalty = sometimes"),
        8,
        "royalty",
        "absolute, extinction or last",
    );
}

#[test]
fn line_without_equals() {
    expect(&with("castling"), 8, "castling", "key = value");
}

#[test]
fn key_outside_section() {
    expect("king = k\n", 1, "king", "outside any [section]");
}

#[test]
fn unterminated_header() {
    expect("[v\nking = k\n", 1, "section", "end with `]`");
}

#[test]
fn castling_file_off_board() {
    expect(
        &with("castlingKingsideFile = k"),
        8,
        "castlingKingsideFile",
        "off the board",
    );
}

#[test]
fn every_error_is_reported() {
    let text = with("fooBar = 1\ncastling = maybe\nmaxFile = 40");
    let errors = load_str(&text, "t.ini").unwrap_err();
    assert!(errors.len() >= 3, "{errors:#?}");
}
