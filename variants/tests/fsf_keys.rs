//! Fairy-Stockfish's keys as users' files have them: a rule Locust does not model is
//! accepted at its neutral value and refused by name otherwise; a built-in's recorded
//! omission refuses the child that inherits it; a file loads section by section; and FSF's
//! own variants.ini (read from the FSF mirror or `LOCUST_FSF_VARIANTS_INI`) loads its
//! sections one by one.

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../../tests/peers/mod.rs"]
mod peers;

use variants::{load_report, load_str};

const BASE: &str = "[v:chess]\n";

fn errors_of(extra: &str) -> Vec<String> {
    match load_str(&format!("{BASE}{extra}\n"), "t.ini") {
        Ok(_) => Vec::new(),
        Err(e) => e.iter().map(|e| e.to_string()).collect(),
    }
}

#[test]
fn neutral_values_are_accepted() {
    for line in [
        "countingRule = none",
        "countingRule = makruk",
        "materialCounting = none",
        "nFoldValue = draw",
        "nFoldValueAbsolute = true",
        "dropChecks = true",
        "mustCapture = false",
        "flagRegionWhite = -",
        "enPassantRegion = *",
        "enPassantTypes = p",
        "nMoveRuleTypes = p",
        "castlingKingFile = e",
        "castlingRank = 1",
        "connectN = 0",
        "pieceToCharTable = PNBRQK",
        "pieceValueEg = q:2000",
    ] {
        assert_eq!(errors_of(line), Vec::<String>::new(), "{line}");
    }
}

#[test]
fn values_that_change_the_game_are_refused_by_name() {
    for (line, key) in [
        ("extinctionClaim = true", "extinctionClaim"),
        ("castlingKingFile = d", "castlingKingFile"),
    ] {
        let e = errors_of(line);
        assert_eq!(e.len(), 1, "{line}: {e:?}");
        assert!(e[0].starts_with(&format!("t.ini:2: {key}: ")), "{}", e[0]);
        assert!(e[0].contains("not modelled by Locust"), "{}", e[0]);
    }
}

/// `moveRepetitionIllegal` is honoured: janggimodern counts the trips of every man but the
/// palace-bound general and guards, a chess section's of every man.
#[test]
fn move_repetition_counts_men_that_reach_the_enemy_king() {
    let all = variants::builtins().unwrap();
    let modern = variants::find(&all, "janggimodern").unwrap();
    let rule = modern.end.move_repetition.as_ref().unwrap();
    for colour in 0..2 {
        for (p, piece) in modern.pieces.iter().enumerate() {
            let palace = matches!(piece.letter.to_ascii_lowercase(), 'k' | 'a');
            assert_eq!(rule.counted[colour][p], !palace, "{}", piece.letter);
        }
    }
    assert!(variants::find(&all, "janggi")
        .unwrap()
        .end
        .move_repetition
        .is_none());
    assert_eq!(
        errors_of("moveRepetitionIllegal = true"),
        Vec::<String>::new()
    );
    let text = "[trips:chess]\nmoveRepetitionIllegal = true\n";
    let v = variants::load_str(text, "t.ini").unwrap().remove(0);
    let counted = &v.end.move_repetition.as_ref().unwrap().counted;
    assert!(counted
        .iter()
        .all(|c| c.len() == v.pieces.len() && c.iter().all(|&x| x)));
}

/// `gating` and `seirawanGating` are honoured (S-chess); gating without its key, or
/// together with walls, is refused by name.
#[test]
fn gating_keys_are_honoured_or_refused_by_name() {
    let all = variants::builtins().unwrap();
    let seirawan = variants::find(&all, "seirawan").unwrap();
    assert!(seirawan
        .gating
        .as_ref()
        .is_some_and(|g| g.seirawan && g.rank == 0));
    assert!(variants::find(&all, "chess").unwrap().gating.is_none());
    assert_eq!(errors_of("gating = true"), Vec::<String>::new());
    assert_eq!(
        errors_of(
            "gating = true\nseirawanGating = true\nstartFen = 8/8/8/8/8/8/8/4K2k[Q] w E - 0 1"
        ),
        Vec::<String>::new()
    );
    for (extra, key) in [
        ("seirawanGating = true", "seirawanGating"),
        ("cambodianMoves = true", "cambodianMoves"),
        ("gating = true\nwallingRule = static", "gating"),
    ] {
        let e = errors_of(extra);
        assert!(
            e.iter().any(|e| e.contains(&format!(": {key}: "))),
            "{extra}: {e:?}"
        );
    }
}

/// The flipping games' keys are read into the rules, FSF's spellings and defaults included
/// (`quadwrangle` as a drop rule is `ataxx`'s; the per-colour pass keys over the common one).
#[test]
fn flipping_keys_are_read() {
    use variants::rules::{EnclosingDrop, Flip};
    let text = "[f:crazyhouse]\nenclosingDrop = quadwrangle\nflipEnclosedPieces = reversi\n\
                passOnStalemate = true\npassOnStalemateBlack = false\nadjudicateFullBoard = true\n\
                enclosingDropStart = d4 e5\nfreeDrops = true\n";
    let v = load_str(text, "t.ini").unwrap().remove(0);
    assert_eq!(v.drops.enclosing, EnclosingDrop::Ataxx);
    assert_eq!(v.flip, Flip::Reversi);
    assert_eq!(v.end.pass_on_stalemate, [true, false]);
    assert!(v.end.full_board_ends && v.drops.free);
    assert_eq!(v.drops.enclosing_start.iter().count(), 2);
    let plain = load_str("[p:crazyhouse]\n", "t.ini").unwrap().remove(0);
    assert_eq!(plain.flip, Flip::None);
    assert_eq!(plain.end.pass_on_stalemate, [false, false]);
    assert!(!plain.end.full_board_ends && !plain.drops.free);
    assert!(plain.drops.enclosing_start.is_empty());
}

#[test]
fn numbers_are_checked() {
    for (line, key) in [
        ("connectN = -1", "connectN"),
        ("connectN = 99999999999", "connectN"),
        ("nMoveRule = x", "nMoveRule"),
        ("maxRank = 0", "maxRank"),
        (
            "extinctionOpponentPieceCount = -2",
            "extinctionOpponentPieceCount",
        ),
    ] {
        let e = errors_of(line);
        assert!(
            e.iter()
                .any(|e| e.starts_with(&format!("t.ini:2: {key}: "))),
            "{line}: {e:?}"
        );
    }
}

/// The built-ins that once recorded FSF rules as omitted (makruk's counting, janggi's
/// material counting, minishogi's repetition) now play them, and a child inherits them.
#[test]
fn builtins_omit_no_rule_and_children_inherit_the_rules() {
    let all = variants::builtins().unwrap();
    for v in &all {
        assert!(v.omits.is_empty(), "{}: {:?}", v.name, v.omits);
    }
    let mk = load_str("[mk:makruk]\n", "t.ini").unwrap();
    assert!(mk[0].end.counting.is_some());
    let jg = load_str("[jg:janggi]\n", "t.ini").unwrap();
    assert!(jg[0].end.material_counting.is_some());
    let off = load_str("[jg:janggi]\nmaterialCounting = none\n", "t.ini").unwrap();
    assert!(off[0].end.material_counting.is_none());
    let e = load_str("[x:chess]\nmaterialCounting = lots\n", "t.ini").unwrap_err();
    assert!(e[0].to_string().contains("materialCounting"), "{}", e[0]);
}

/// A child's own letter replaces the inherited piece of that letter (FSF's `add_piece`).
#[test]
fn a_child_letter_replaces_the_inherited_piece() {
    let v = load_str("[c:chess]\ncustomPiece1 = n:NN\n", "t.ini").unwrap();
    let n = v[0].piece_by_letter('N').unwrap();
    assert_eq!(v[0].pieces[n as usize].name, "customPiece1");
    assert!(v[0].pieces.iter().all(|p| p.name != "knight"));
}

/// FSF reads a board-only start FEN as White to move without castling; castling rights in
/// a FEN of a variant without castling are dropped; `immobile` has no moves.
#[test]
fn fsf_start_fen_forms() {
    let v = load_str("[c:chess]\nstartFen = 4k3/8/8/8/8/8/8/4K3\n", "t.ini").unwrap();
    assert_eq!(v[0].start_fen, "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    let text = "[c:chess]\ncastling = false\nstartFen = 4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1\n";
    assert_eq!(
        load_str(text, "t.ini").unwrap()[0].start_fen,
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1"
    );
    let v = load_str("[c:chess]\nimmobile = x\n", "t.ini").unwrap();
    let x = v[0].piece_by_letter('X').unwrap();
    assert!(v[0].pieces[x as usize].moves.roots.is_empty());
}

#[test]
fn a_bad_section_does_not_stop_the_file() {
    let text = "[a:chess]\n[b:chess]\ncastling = maybe\n[c:b]\n[d:a]\nmaxFile = 9\n\
                startFen = 4k4/9/9/9/9/9/9/4K4 w - - 0 1\n";
    let report = load_report(text, "t.ini");
    let names = |ok: bool| -> Vec<&str> {
        (report.sections.iter())
            .filter(|s| s.result.is_ok() == ok)
            .map(|s| s.name.as_str())
            .collect()
    };
    assert_eq!(names(true), ["a", "d"]);
    assert_eq!(names(false), ["b", "c"]);
    assert!(report.errors()[0]
        .to_string()
        .starts_with("t.ini:3: castling:"));
}

/// FSF's own variants.ini (GPL, so not in this repository): every section is reported on
/// its own, at least the sections measured loading at this commit load, and every refusal
/// says what it is about. Skipped, visibly, where the file is not at hand.
#[test]
fn fsf_variants_ini_loads_section_by_section() {
    let Some(text) = peers::fsf_variants_ini() else {
        let why = "Fairy-Stockfish's variants.ini not found (set LOCUST_FSF_VARIANTS_INI)";
        peers::missing(
            peers::FSF_VARIANTS_INI,
            "fsf_variants_ini_loads_section_by_section",
            why,
        );
        return;
    };
    let report = load_report(&text, "variants.ini");
    assert_eq!(report.sections.len(), 143);
    assert!(report.file_errors.is_empty(), "{:?}", report.file_errors);
    let loaded = report.variants();
    for name in [
        "maharajah",
        "peasant",
        "grandhouse",
        "minihouse",
        "semitorpedo",
        "epicatomic",
    ] {
        assert!(loaded.iter().any(|v| v.name == name), "{name} did not load");
    }
    assert!(loaded.len() >= 27, "{} loaded", loaded.len());
}

/// A limited hopper's range counts the screen's square, as FSF reads `pR2`: a screen next
/// to it is hopped to the square behind, a screen two away is out of reach.
#[test]
fn a_limited_hopper_counts_the_screen() {
    let v = load_str("[h:chess]\ncustomPiece1 = x:pR2\n", "t.ini").unwrap();
    let x = v[0].piece_by_letter('X').unwrap();
    let moves = &v[0].pieces[x as usize].moves;
    let up = |screen: i32| {
        let t = moves.targets((0, 0), 8, 8, &|f, r| {
            (f == 0 && r == screen).then_some(false)
        });
        let mut up: Vec<i32> = t.iter().filter(|m| m.0 == 0).map(|m| m.1).collect();
        up.sort_unstable();
        up
    };
    assert_eq!(up(1), [2]);
    assert!(up(2).is_empty());
}

/// A parent that is one of FSF's built-ins Locust does not play is named as such (each
/// such name: the list shrinks as Locust learns them), one Locust plays is never called
/// missing (an alias, `mini`, is named as one); an unknown name stays unknown.
#[test]
fn an_fsf_parent_locust_lacks_is_named() {
    let all = variants::builtins().unwrap();
    for name in variants::builtin::FSF_BUILTIN_NAMES {
        let got = load_str(&format!("[g:{name}]\n"), "t.ini");
        let lacking = got.as_ref().err().and_then(|e| e.first()).is_some_and(|e| {
            e.message
                .contains("is a Fairy-Stockfish built-in variant that Locust does not play")
        });
        assert_eq!(
            lacking,
            variants::find(&all, name).is_none(),
            "{name}: {got:?}"
        );
    }
    let e = load_str("[g:mini]\n", "t.ini").unwrap_err();
    assert!(e[0].message.contains("alias of `minishogi`"), "{}", e[0]);
    let e = load_str("[g:nosuchthing]\n", "t.ini").unwrap_err();
    assert_eq!(e[0].message, "unknown parent variant `nosuchthing`");
}

/// FSF's promoted type is the type it names: a `+P` that moves like a region-bound `w`
/// (chak's `promotedPieceType = p:w`) is bound to `w`'s region too.
#[test]
fn a_promoted_form_keeps_the_mobility_region_of_the_type_it_stands_for() {
    let text = "[v:chess]\ncustomPiece1 = w:FvW\npromotedPieceType = p:w\n\
                mobilityRegionWhiteCustomPiece1 = *5 *6 *7 *8\n\
                mobilityRegionBlackCustomPiece1 = *1 *2 *3 *4\n";
    let v = &load_str(text, "t.ini").unwrap()[0];
    let find = |letter: char, plus: bool| {
        (v.pieces.iter())
            .find(|p| p.letter.eq_ignore_ascii_case(&letter) && p.plus_form == plus)
            .unwrap_or_else(|| panic!("no {letter} {plus}"))
    };
    let (w, plus_p, p) = (find('w', false), find('p', true), find('p', false));
    assert!(w.confined.is_some());
    assert_eq!(plus_p.confined, w.confined);
    assert_eq!(p.confined, None);
}

/// A promoted form standing for a type that a type-keyed rule names (royal, extinction,
/// flag, promotionLimit) is refused: FSF counts the promoted man as that type, Locust's
/// `+X` is a type of its own (backrank, shogun in FSF's variants.ini).
#[test]
fn a_promoted_form_counts_as_the_type_it_stands_for() {
    let id = |v: &variants::Variant, name: &str| {
        v.pieces.iter().position(|p| p.name == name).unwrap() as variants::PieceId
    };
    let plus = |v: &variants::Variant, name: &str| v.pieces[id(v, name) as usize].promoted.unwrap();
    // Backrank: a man that is not royal may promote into the pseudo-royal commoner only
    // where the promotion reaches the commoner's flag, which ends the game.
    let backrank = "[v:chess]\nking = -\ncommoner = k\nextinctionValue = loss\n\
                    extinctionPieceTypes = k\nextinctionPseudoRoyal = true\n\
                    promotionPieceTypes = -\npromotedPieceType = q:k\n";
    let e = load_str(backrank, "t.ini").unwrap_err();
    assert!(
        e.iter()
            .any(|e| e.message.contains("stands for `commoner`")),
        "{e:?}"
    );
    let flag = format!("{backrank}flagPiece = k\nflagRegionWhite = *8\nflagRegionBlack = *1\n");
    let v = load_str(&flag, "t.ini").unwrap().remove(0);
    let q = plus(&v, "queen");
    assert_eq!(v.rule_type(q), id(&v, "commoner"));
    assert!(!v.pieces[q as usize].royal && v.stand_in_counts());
    // A royal man's promoted form stays royal (chak's king promoting to the flag piece).
    let chak = "[v:chess]\nking = -\ncommoner = k\ncustomPiece1 = d:mQ2cQ2\n\
                castlingKingPiece = k\nextinctionValue = loss\nextinctionPieceTypes = kd\n\
                extinctionPseudoRoyal = true\npromotedPieceType = k:d\n";
    let v = load_str(chak, "t.ini").unwrap().remove(0);
    let k = plus(&v, "commoner");
    assert!(v.pieces[k as usize].royal && v.rule_type(k) == id(&v, "customPiece1"));
    // A king (royal as such, not by extinction) is not a type a promotion may stand for.
    let king = "[v:chess]\nfers = f\npromotionPieceTypes = -\npromotedPieceType = f:k\n";
    let e = load_str(king, "t.ini").unwrap_err();
    assert!(
        e.iter().any(|e| e.message.contains("stands for `king`")),
        "{e:?}"
    );
    // promotionLimit counts the promoted fers as a queen.
    let limited = "[v:chess]\nfers = f\npromotionPieceTypes = -\npromotedPieceType = f:q\n\
                   promotionLimit = q:1\nstartFen = 4k3/8/8/8/8/8/8/3FK3 w - - 0 1\n";
    let v = load_str(limited, "t.ini").unwrap().remove(0);
    assert_eq!(v.rule_type(plus(&v, "fers")), id(&v, "queen"));
    assert!(v.stand_in_counts());
    // The same promotion with no type-keyed rule on the queen counts for nothing.
    let free = limited.replace("promotionLimit = q:1\n", "");
    assert!(!load_str(&free, "t.ini").unwrap()[0].stand_in_counts());
}

/// `mutuallyImmuneTypes` (atomar): a man may not take one of its own immune type; a royal
/// type is refused by name (FSF still counts its attack as check).
#[test]
fn mutually_immune_types_bar_captures_of_their_own_type() {
    let all = variants::builtins().unwrap();
    let atomar = variants::find(&all, "atomar").unwrap();
    let k = atomar.piece_by_letter('K').unwrap();
    assert!(atomar.capture_matrix.no_capture.contains(&(k, k)));
    let royal = "[t:chess]\nmutuallyImmuneTypes = k\n";
    let e = load_str(royal, "t.ini").unwrap_err();
    assert!(
        e.iter().any(|e| e.message.contains("mutually immune")),
        "{e:?}"
    );
}

/// FSF applies a child to its parent's variant, where piece sets hold types: a type given a
/// new letter keeps its place in the inherited promotion choices (gemini on janus), and a
/// removed type leaves them and the castling king (massacre on giveaway).
#[test]
fn inherited_piece_sets_follow_the_types_they_named() {
    let fen = "rnbaqkabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBAQKABNR w KQkq - 0 1";
    let v = load_str(
        &format!("[g:janus]\narchbishop = a\nstartFen = {fen}\n"),
        "t.ini",
    )
    .unwrap()
    .remove(0);
    let pawn = v.piece_by_letter('P').unwrap();
    let a = v.piece_by_letter('A').unwrap();
    assert!(v.pieces[pawn as usize].promotions.contains(&a));
    assert_eq!(v.pieces[pawn as usize].promotions.len(), 5);
    let text = "[m:giveaway]\ncommoner = -\nqueen = -\ncustomPiece1 = q:cQ\n\
                startFen = 4q3/8/8/8/8/8/8/3Q4 w - - 0 1\n";
    let v = load_str(text, "t.ini").unwrap().remove(0);
    let pawn = v.piece_by_letter('P').unwrap();
    let choices: Vec<char> = (v.pieces[pawn as usize].promotions.iter())
        .map(|&p| v.pieces[p as usize].letter)
        .collect();
    assert_eq!(choices, ['R', 'B', 'N']);
    assert!(v.castling.is_none());
}
