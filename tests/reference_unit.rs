//! Unit tests of the reference move generator on hand-built variants: a 5x5 board with
//! hand-pushed trajectories (move lists counted by hand), and orthodox chess built from
//! XBetza (published perft numbers).

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic on their own fixtures

use std::collections::BTreeSet;
use std::sync::Arc;

use locust::board::layout::Layout;
use locust::board::moves::{Move, MoveKind, NO_PIECE};
use locust::board::position::Position;
use locust::board::reference::{legal_moves, perft, play, RefBoard};
use locust::board::zobrist::Zobrist;
use variants::geometry::{Coord, SquareSet};
use variants::rules::{
    CaptureMatrix, Castling, Drops, GameEnd, Origin, Outcome, PieceType, Promotion, Royalty,
};
use variants::{rights, xbetza, Node, PieceId, Trajectories, Variant};

const MC: u16 = rights::MOVE_OR_CAPTURE;

fn piece(name: &str, letter: char, moves: Trajectories, royal: bool) -> PieceType {
    PieceType {
        name: name.into(),
        letter,
        plus_form: false,
        betza: String::new(),
        moves,
        value: 100,
        value_eg: 100,
        royal,
        promotions: Vec::new(),
        promoted: None,
        demotes_to: None,
        mandatory_promotion: false,
        dead_squares: SquareSet::EMPTY,
        stuck_squares: SquareSet::EMPTY,
        confined: None,
        leaves_behind: None,
        suffix: None,
        burns: false,
        range_jump: false,
        jump_rank: 0,
        stands_for: None,
    }
}

fn betza(text: &str) -> Trajectories {
    xbetza::compile(&xbetza::parse(text).unwrap(), 16).unwrap()
}

fn variant(files: u8, ranks: u8, pieces: Vec<PieceType>, start_fen: &str) -> Variant {
    Variant {
        name: "test".into(),
        aliases: Vec::new(),
        origin: Origin::Builtin("test".into()),
        files,
        ranks,
        pieces,
        start_fen: start_fen.into(),
        zones: Vec::new(),
        castling: None,
        promotion: Promotion::default(),
        drops: Drops::default(),
        end: GameEnd {
            checkmate: Outcome::Loss,
            stalemate: Outcome::Draw,
            royalty: Royalty::Absolute,
            royals_counted_before_move: false,
            extinction_types: Vec::new(),
            bare_king_loses: false,
            n_move_rule: 100,
            n_move_resets: [Vec::new(), Vec::new()],
            n_fold_rule: 3,
            n_fold_value: Outcome::Draw,
            n_fold_value_absolute: false,
            perpetual_check_illegal: false,
            chasing_rule: false,
            flying_general: false,
            bikjang: false,
            check_counting: false,
            checking: true,
            flag: None,
            connect: None,
            counting: None,
            material_counting: None,
            extinction: None,
            must_capture: false,
            stalemate_piece_count: false,
            pass_on_stalemate: [false; 2],
            full_board_ends: false,
            makpong: false,
            shatar: None,
            move_repetition: None,
        },
        blast: None,
        capture_matrix: CaptureMatrix::default(),
        pass_move: false,
        flip: variants::rules::Flip::None,
        black_rotated: false,
        en_passant_region: None,
        walling: None,
        gating: None,
        petrify: Vec::new(),
        petrify_guards: Vec::new(),
        xboard_parent: "fairy".into(),
        omits: Vec::new(),
    }
}

/// One-step leaps in the given directions.
fn steps(dirs: &[(i8, i8)], r: u16) -> Trajectories {
    let mut t = Trajectories::default();
    for &d in dirs {
        t.push(Node::new(d, r), None);
    }
    t
}

/// Slides in the given directions, up to `len` squares.
fn slides(dirs: &[(i8, i8)], len: usize) -> Trajectories {
    let mut t = Trajectories::default();
    for &d in dirs {
        let mut parent = None;
        for _ in 0..len {
            parent = Some((t.push(Node::new(d, MC), parent), false));
        }
    }
    t
}

const ORTH: [(i8, i8); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
const DIAG: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, -1), (-1, 1)];
const ALL8: [(i8, i8); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

/// 5x5: king, rook, pawn (one step forward, diagonal captures, promotes to rook on the last
/// rank), all trajectories pushed by hand.
fn mini() -> Variant {
    let mut pawn = steps(&[(0, 1)], rights::MOVE);
    pawn.push(Node::new((1, 1), rights::CAPTURE), None);
    pawn.push(Node::new((-1, 1), rights::CAPTURE), None);
    let mut p = piece("pawn", 'P', pawn, false);
    p.promotions = vec![1];
    p.mandatory_promotion = true;
    let mut v = variant(
        5,
        5,
        vec![
            piece("king", 'K', steps(&ALL8, MC), true),
            piece("rook", 'R', slides(&ORTH, 4), false),
            p,
        ],
        "rpkpr/5/5/5/RPKPR w - - 0 1",
    );
    v.promotion.zone_white = SquareSet::ranks(5, 4, 4);
    v.promotion.zone_black = SquareSet::ranks(5, 0, 0);
    v
}

fn texts(v: &Variant, moves: &[Move]) -> BTreeSet<String> {
    let letter = |p: PieceId| v.pieces.get(p as usize).map_or('?', |x| x.letter);
    moves.iter().map(|m| m.text(letter)).collect()
}

fn set(s: &str) -> BTreeSet<String> {
    s.split_whitespace().map(String::from).collect()
}

/// Legal moves of a study position. The variant's start position is emptied so that a side
/// without a king is a study, not a side that has lost its royals.
fn moves_of(v: &Variant, fen: &str) -> BTreeSet<String> {
    let mut v = v.clone();
    v.start_fen = "5/5/5/5/5 w - - 0 1".into();
    let b = RefBoard::from_fen(&v, fen).unwrap();
    texts(&v, &legal_moves(&b, &v))
}

#[test]
fn lone_rook_on_5x5_has_8_moves() {
    let v = mini();
    assert_eq!(
        moves_of(&v, "5/5/5/5/R4 w - -"),
        set("a1a2 a1a3 a1a4 a1a5 a1b1 a1c1 a1d1 a1e1")
    );
}

#[test]
fn king_in_the_middle_and_in_the_corner() {
    let v = mini();
    assert_eq!(moves_of(&v, "5/5/2K2/5/5 w - -").len(), 8);
    assert_eq!(moves_of(&v, "5/5/5/5/K4 w - -"), set("a1a2 a1b1 a1b2"));
}

#[test]
fn rook_stops_at_friends_and_captures_foes() {
    let v = mini();
    assert_eq!(
        moves_of(&v, "5/r4/5/5/R1P2 w - -"),
        set("a1a2 a1a3 a1a4 a1b1 c1c2")
    );
}

#[test]
fn pinned_pawn_has_no_moves_and_king_avoids_attacks() {
    let v = mini();
    // Rook e2 pins pawn b2 against king a2 along the rank.
    let fen = "4k/5/5/KP2r/5 w - -";
    assert_eq!(moves_of(&v, fen), set("a2a1 a2b1 a2a3 a2b3"));
    // Depth 2: after each king move Black has 6 rook moves and 3 king moves.
    let b = RefBoard::from_fen(&v, fen).unwrap();
    assert_eq!(perft(&b, &v, 1), 4);
    assert_eq!(perft(&b, &v, 2), 36);
}

#[test]
fn check_must_be_answered_and_promotion_is_mandatory() {
    let v = mini();
    // Rook a5 checks king a1; only capturing it (promoting) or stepping off the file helps.
    let fen = "r3k/1P3/5/5/K4 w - -";
    assert_eq!(moves_of(&v, fen), set("a1b1 a1b2 b4a5r"));
    let b = RefBoard::from_fen(&v, fen).unwrap();
    let promo = legal_moves(&b, &v)
        .into_iter()
        .find(|m| m.kind == MoveKind::Promotion)
        .unwrap();
    assert_eq!(promo.piece, 1);
    let after = play(&b, &v, &promo);
    let man = after.at(Coord::new(0, 4)).unwrap();
    assert_eq!((man.piece, man.colour.index()), (1, 0));
    assert!(after.at(Coord::new(1, 3)).is_none());
}

#[test]
fn black_pawns_move_down() {
    let v = mini();
    assert_eq!(moves_of(&v, "5/2p2/1P3/5/5 b - -"), set("c4c3 c4b3"));
}

#[test]
fn mini_start_perft_by_hand() {
    let v = mini();
    let b = RefBoard::from_fen(&v, &v.start_fen).unwrap();
    // Rooks a1/e1: three steps up the file and the capture of the rook opposite (4 each);
    // pawns b1/d1: one push each; king c1: b2 c2 d2. 4 + 4 + 1 + 1 + 3 = 13.
    assert_eq!(perft(&b, &v, 1), 13);
}

/// A checkers-like man: jumps over a diagonal foe, capturing it, up to twice in a row.
fn locust_variant() -> Variant {
    let mut t = Trajectories::default();
    let locust = rights::PASS_FOE | rights::LOCUST_FOE;
    for &d in &DIAG {
        let over = t.push(Node::new(d, locust), None);
        let land = t.push(Node::new(d, rights::MOVE), Some((over, true)));
        let over2 = t.push(Node::new(d, locust), Some((land, false)));
        t.push(Node::new(d, rights::MOVE), Some((over2, true)));
    }
    variant(
        7,
        7,
        vec![
            piece("king", 'K', steps(&ALL8, MC), true),
            piece("checker", 'C', t, false),
        ],
        "7/7/7/7/7/7/7 w - -",
    )
}

#[test]
fn locust_victims_are_listed_from_the_end_backwards() {
    let v = locust_variant();
    let b = RefBoard::from_fen(&v, "6k/7/7/3c3/7/1c5/C5K w - -").unwrap();
    let moves = legal_moves(&b, &v);
    let double = moves
        .iter()
        .find(|m| m.to_coord() == Coord::new(4, 4))
        .unwrap();
    // a1 x b2 -> c3 x d4 -> e5: victims d4 then b2.
    let extras: Vec<Coord> = double.extras().collect();
    assert_eq!(extras, vec![Coord::new(3, 3), Coord::new(1, 1)]);
    assert_eq!(
        texts(&v, std::slice::from_ref(double)),
        set("a1d4,d4b2,b2e5")
    );
    let after = play(&b, &v, double);
    assert!(after.at(Coord::new(3, 3)).is_none() && after.at(Coord::new(1, 1)).is_none());
    assert!(after.at(Coord::new(4, 4)).is_some());
    // The single jump to c3 is a move too.
    assert!(moves
        .iter()
        .any(|m| m.to_coord() == Coord::new(2, 2) && m.n_extra == 1));
}

// ---------------------------------------------------------------------------------------
// Orthodox chess from XBetza
// ---------------------------------------------------------------------------------------

const CHESS_START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

fn chess() -> Variant {
    let mut pawn = piece("pawn", 'P', betza("fmWfceFifmnD"), false);
    pawn.promotions = vec![1, 2, 3, 4];
    pawn.mandatory_promotion = true;
    let mut v = variant(
        8,
        8,
        vec![
            pawn,
            piece("knight", 'N', betza("N"), false),
            piece("bishop", 'B', betza("B"), false),
            piece("rook", 'R', betza("R"), false),
            piece("queen", 'Q', betza("Q"), false),
            piece("king", 'K', betza("KisO2"), true),
        ],
        CHESS_START,
    );
    v.promotion.zone_white = SquareSet::ranks(8, 7, 7);
    v.promotion.zone_black = SquareSet::ranks(8, 0, 0);
    v.castling = Some(Castling {
        king_side_file: 6,
        queen_side_file: 2,
        rook_types: vec![3],
        king_type: 5,
        chess960: false,
        rank: 0,
        rook_files: (7, 0),
        opposite: false,
        wins: [[false; 2]; 2],
    });
    v
}

fn ref_perft(v: &Variant, fen: &str, depth: u32) -> u64 {
    perft(&RefBoard::from_fen(v, fen).unwrap(), v, depth)
}

#[test]
fn chess_start_perft() {
    let v = chess();
    assert_eq!(ref_perft(&v, CHESS_START, 1), 20);
    assert_eq!(ref_perft(&v, CHESS_START, 2), 400);
    assert_eq!(ref_perft(&v, CHESS_START, 3), 8902);
}

/// Chessprogramming-wiki perft positions 2-5 at low depth (castling, e.p., promotions,
/// pins and checks).
#[test]
fn chess_perft_positions() {
    let v = chess();
    let cases: [(&str, &[u64]); 4] = [
        (
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            &[48, 2039],
        ),
        (
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            &[14, 191, 2812],
        ),
        (
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            &[6, 264],
        ),
        (
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            &[44, 1486],
        ),
    ];
    for (fen, counts) in cases {
        for (d, &n) in counts.iter().enumerate() {
            assert_eq!(ref_perft(&v, fen, d as u32 + 1), n, "{fen} depth {}", d + 1);
        }
    }
}

#[test]
fn chess_castling_and_en_passant_moves() {
    let v = chess();
    let castles = moves_of(&v, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert!(castles.contains("e1g1") && castles.contains("e1c1"));
    // Castling through an attacked square (f1 by the rook f8) is out; queen side is fine.
    let through = moves_of(&v, "5r1k/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert!(!through.contains("e1g1") && through.contains("e1c1"));
    let b = RefBoard::from_fen(&v, "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1").unwrap();
    let ep: Vec<Move> = legal_moves(&b, &v)
        .into_iter()
        .filter(|m| m.kind == MoveKind::EnPassant)
        .collect();
    assert_eq!(ep.len(), 1);
    assert_eq!(ep[0].extras().collect::<Vec<_>>(), vec![Coord::new(3, 4)]);
    assert_eq!(ep[0].piece, NO_PIECE);
    let after = play(&b, &v, &ep[0]);
    assert!(after.at(Coord::new(3, 4)).is_none());
}

#[test]
fn double_step_sets_en_passant() {
    let v = chess();
    let b = RefBoard::from_fen(&v, CHESS_START).unwrap();
    let e4 = legal_moves(&b, &v)
        .into_iter()
        .find(|m| m.to_coord() == Coord::new(4, 3))
        .unwrap();
    assert!(e4.sets_ep);
    let ep = play(&b, &v, &e4).ep.unwrap();
    assert_eq!(ep.targets, vec![Coord::new(4, 2)]);
    assert_eq!(ep.victim, Coord::new(4, 3));
}

#[test]
fn from_position_reads_the_engine_position() {
    let v = chess();
    let lay = Arc::new(Layout::new(v.clone()));
    let zob = Arc::new(Zobrist::new(&lay));
    let fen = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1";
    let pos = Position::from_fen(lay, zob, fen).unwrap();
    let ours = RefBoard::from_fen(&v, fen).unwrap();
    assert_eq!(RefBoard::from_position(&pos), ours);
}

// ---------------------------------------------------------------------------------------
// Built-in variants from the loader
// ---------------------------------------------------------------------------------------

fn builtin(name: &str) -> Variant {
    let all = variants::builtins().unwrap();
    variants::find(&all, name).unwrap().clone()
}

fn start_perft(v: &Variant, counts: &[u64]) {
    for (d, &n) in counts.iter().enumerate() {
        assert_eq!(
            ref_perft(v, &v.start_fen, d as u32 + 1),
            n,
            "{} depth {}",
            v.name,
            d + 1
        );
    }
}

#[test]
fn builtin_chess_perft() {
    let v = builtin("chess");
    start_perft(&v, &[20, 400, 8902]);
    // Kiwipete: castling on both wings from the loader's Castling data.
    let kiwi = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    assert_eq!(ref_perft(&v, kiwi, 1), 48);
    assert_eq!(ref_perft(&v, kiwi, 2), 2039);
}

/// Published start-position counts (Fairy-Stockfish) at low depth.
#[test]
fn builtin_start_perfts() {
    start_perft(&builtin("xiangqi"), &[44, 1920]);
    start_perft(&builtin("shogi"), &[30, 900]);
    start_perft(&builtin("capablanca"), &[28, 784]);
    start_perft(&builtin("atomic"), &[20, 400, 8902]);
    start_perft(&builtin("crazyhouse"), &[20, 400]);
}

#[test]
fn atomic_kings_side_by_side() {
    let v = builtin("atomic");
    // Touching kings do not check each other (taking one blows up the other), and a king
    // may not capture: it would explode itself.
    assert_eq!(
        moves_of(&v, "8/8/8/8/8/8/4k3/4K3 w - - 0 1"),
        set("e1d1 e1f1 e1d2 e1f2")
    );
}

#[test]
fn chu_lion_may_step_out_and_back() {
    let v = builtin("chu");
    // `mcabK`: the lion's pass (and igui); its own square counts as empty while it moves.
    let fen = "lfcsgekgs1fl/a1bt1xotcb1a/mvrhdqndhrvm/ppppppppppp1/3i4i2p/12/8I3/\
               3I2N2P2/PPPPPPPPP1PP/MVRHD1QDHRVM/AFBSTOXT1B1A/L1C1GKEGSCFL w - - 10 6";
    assert!(moves_of(&v, fen).contains("g5g5"));
}

/// Grand chess: a pawn on the ninth rank that may not advance for want of a captured piece
/// to become still gives check on the tenth (the published rules; Fairy-Stockfish agrees,
/// g10f10 is not among its legal moves). Found by a walk where the reference disagreed.
#[test]
fn grand_pawn_without_promotion_still_checks() {
    let all = variants::builtins().unwrap();
    let v = variants::find(&all, "grand").unwrap().clone();
    let fen = "6k3/4P5/10/10/10/10/10/10/QCARRBB1N1/K4N4 b - - 7 4";
    let mut pos = Position::new_game(v.clone())
        .unwrap()
        .with_fen(fen)
        .unwrap();
    let mut engine = Vec::new();
    pos.legal_moves(&mut engine, &mut Vec::new());
    let oracle = legal_moves(&RefBoard::from_position(&pos), &v);
    for moves in [&engine, &oracle] {
        let texts: BTreeSet<String> = moves.iter().map(|m| m.text(|_| 'x')).collect();
        let want: BTreeSet<String> = ["g10f9", "g10g9", "g10h10"].map(String::from).into();
        assert_eq!(texts, want);
    }
}
