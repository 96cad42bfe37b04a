//! Capture rules on multi-victim moves, engine against the reference generator: a locust
//! (lion) capture may not take a man its capture matrix protects (`iron`, `noCapture`),
//! atomic blasts spare fully immune types, and a move may take any number of victims;
//! e.p. and self-captures obey the matrix too, a self-capture may not take the own royal, and
//! an e.p. capture at the end of a locust path keeps the victims taken on the way, and a
//! double step that promotes leaves nothing to take en passant.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic on their own fixtures

mod common;

use common::{ini_variant, legal_as_reference, walk_checked};
use locust::board::moves::Move;
use locust::board::position::Position;

/// 8x8: kings, a chu lion, an iron wall man (steps like a wazir) and a knight nobody may
/// take with the lion (`noCapture = n:h`).
const IRON_LION: &str = "\
[ironlion]
maxFile = 8
maxRank = 8
king = k:K
piece.lion = n:KNADcaKmabK
piece.wall = w:W
piece.horse = h:N
iron = w
noCapture = n:h
castling = false
doubleStep = false
promotionPieceTypes = -
promotionPawnTypes = -
startFen = 3k4/8/2wnh3/8/8/3HNW2/8/4K3 w - - 0 1
";

fn texts(pos: &Position, moves: &[Move]) -> Vec<String> {
    let letter = |p: u8| pos.variant().pieces[p as usize].letter;
    let mut t: Vec<String> = moves.iter().map(|m| m.text(letter)).collect();
    t.sort();
    t
}

#[test]
fn a_lion_does_not_eat_an_iron_man_on_the_way() {
    let rules = ini_variant(IRON_LION);
    // White lion d4 next to a black iron wall on e5 and a protected horse on c5; the
    // lion may not capture either, neither by replacement nor in passing.
    let mut pos = Position::new_game(rules.clone())
        .unwrap()
        .with_fen("3k4/8/8/2hw4/3N4/8/8/4K3 w - - 0 1")
        .unwrap();
    let legal = legal_as_reference("ironlion", &mut pos, &rules);
    let t = texts(&pos, &legal);
    assert!(
        !t.iter().any(|m| m.contains("d5") && m.contains(',')),
        "no locust capture on d5 {t:?}"
    );
    assert!(!t.iter().any(|m| m.contains("c5")), "{t:?}");
    assert!(!t.iter().any(|m| m.contains("d4d5")), "{t:?}");
}

#[test]
fn iron_lion_walk_matches_reference() {
    let rules = ini_variant(IRON_LION);
    let pos = Position::new_game(rules.clone()).unwrap();
    walk_checked("ironlion", pos, &rules, 3_000, 0x1A2B_3C4D);
}

/// Atomic chess where knights and queens survive every explosion, their own included.
const IMMUNE_ATOMIC: &str = "\
[immuneatomic:atomic]
blastImmuneTypes = nq
";

#[test]
fn fully_immune_men_survive_the_blast() {
    let rules = ini_variant(IMMUNE_ATOMIC);
    // White knight e4 takes d6: the black queen on c7 and bishop e7 stand next to d6.
    let mut pos = Position::new_game(rules.clone())
        .unwrap()
        .with_fen("4k3/2q1b3/3p4/8/4N3/8/8/4K3 w - - 0 1")
        .unwrap();
    let mut ops = Vec::new();
    let legal = legal_as_reference("immuneatomic", &mut pos, &rules);
    let letter = |p: u8| pos.variant().pieces[p as usize].letter;
    let nxd6 = *legal.iter().find(|m| m.text(letter) == "e4d6").unwrap();
    pos.make(&nxd6, &mut ops);
    // The knight stays on d6, the queen on c7; pawn and bishop are gone.
    assert_eq!(pos.fen().split(' ').next(), Some("4k3/2q5/3N4/8/8/8/8/4K3"));
}

#[test]
fn immune_atomic_walk_matches_reference() {
    let rules = ini_variant(IMMUNE_ATOMIC);
    for (i, seed) in [0x5EED_0001u64, 0x5EED_0002, 0x5EED_0003]
        .into_iter()
        .enumerate()
    {
        let pos = Position::new_game(rules.clone()).unwrap();
        walk_checked(&format!("immuneatomic #{i}"), pos, &rules, 3_000, seed);
    }
}

/// A checker man on 12x12 (trajectories built by hand, as XBetza's four legs allow at most
/// three locust victims): jumps up to five foes in a row along a diagonal, capturing each.
fn five_jumps() -> variants::Variant {
    use variants::{rights, Node, Trajectories};
    let mut v = ini_variant(
        "[checkers12]\nmaxFile = 12\nmaxRank = 12\nking = k:K\npiece.checker = c:W\n\
         castling = false\ndoubleStep = false\npromotionPieceTypes = -\n\
         promotionPawnTypes = -\nstartFen = 11k/12/12/12/12/12/12/12/12/12/12/C10K w - - 0 1\n",
    );
    let mut t = Trajectories::default();
    for d in [(1, 1), (-1, 1), (1, -1), (-1, -1)] {
        let mut parent = None;
        for _ in 0..5 {
            let over = t.push(Node::new(d, rights::PASS_FOE | rights::LOCUST_FOE), parent);
            let land = t.push(Node::new(d, rights::MOVE), Some((over, true)));
            parent = Some((land, false));
        }
    }
    let c = v.pieces.iter().position(|p| p.letter == 'C').unwrap();
    v.pieces[c].moves = t;
    v
}

#[test]
fn a_move_may_take_any_number_of_victims() {
    let rules = five_jumps();
    // a1 jumps b2, d4, f6, h8 and j10 to land on k11.
    let mut pos = Position::new_game(rules.clone())
        .unwrap()
        .with_fen("11k/12/9c2/12/7c4/12/5c6/12/3c8/12/1c10/C10K w - - 0 1")
        .unwrap();
    let legal = legal_as_reference("checkers12", &mut pos, &rules);
    let long: Vec<&Move> = legal.iter().filter(|m| m.n_extras() == 5).collect();
    assert_eq!(long.len(), 1, "the five-victim move is generated");
    let m = *long[0];
    assert_eq!(m.extras().count(), 5);
    let letter = |p: u8| pos.variant().pieces[p as usize].letter;
    assert_eq!(
        m.text(letter),
        "a1j10,j10h8,h8f6,f6d4,d4b2,b2k11",
        "victims from the end of the path backwards"
    );
    // Every shorter jump sequence is a move too, with as many victims as jumps.
    for n in 1..=4 {
        assert_eq!(legal.iter().filter(|m| m.n_extras() == n).count(), 1);
    }
    let (mut ops, fen) = (Vec::new(), pos.fen());
    let saved = pos.make(&m, &mut ops);
    assert_eq!(
        pos.fen().split(' ').next(),
        Some("11k/10C1/12/12/12/12/12/12/12/12/12/11K")
    );
    assert_eq!(pos.inconsistency(), None);
    pos.unmake(saved, &mut ops);
    assert_eq!(pos.fen(), fen);
    // The same list of victims is the same move (the long list is shared, not copied).
    let again = legal_as_reference("checkers12", &mut pos, &rules);
    assert!(again.contains(&m));
}

/// Chess where pawns are iron and a destroyer (`dW`: may take its own men) cannot take the
/// knight. White: king e1, destroyer e2 between knight d2, bishop f2; black pawn f4.
const IRON_PAWNS: &str = "\
[ironpawns:chess]
piece.destroyer = d:dWmW
iron = p
noCapture = d:n
startFen = 4k3/8/8/8/5p2/8/3NDBP1/4K3 w - - 0 1
";

#[test]
fn en_passant_and_self_capture_respect_the_matrix() {
    let rules = ini_variant(IRON_PAWNS);
    let mut pos = Position::new_game(rules.clone()).unwrap();
    let mut ops = Vec::new();
    let legal = legal_as_reference("ironpawns", &mut pos, &rules);
    let t = texts(&pos, &legal);
    let has = |m: &str| t.iter().any(|x| x == m);
    assert!(!has("e2d2"), "the destroyer takes no knight {t:?}");
    assert!(!has("e2e1"), "nor its own king {t:?}");
    assert!(has("e2f2"), "but it may take its bishop {t:?}");
    let letter = |p: u8| pos.variant().pieces[p as usize].letter;
    let g4 = *legal.iter().find(|m| m.text(letter) == "g2g4").unwrap();
    pos.make(&g4, &mut ops);
    // The f4 pawn may not take the iron g4 pawn in passing.
    let legal = legal_as_reference("ironpawns", &mut pos, &rules);
    assert!(!texts(&pos, &legal).iter().any(|m| m == "f4g3"));
}

/// Chess plus a piece that takes a foe next to it and then, from there, a pawn in passing
/// one step diagonally forward-left (`cafleK`).
const LOCUST_EP: &str = "\
[locustep:chess]
piece.raider = x:cafleK
startFen = 4k3/3p4/8/4p3/4X3/8/8/4K3 b - - 0 1
";

#[test]
fn an_en_passant_capture_keeps_its_locust_victims() {
    let rules = ini_variant(LOCUST_EP);
    let mut pos = Position::new_game(rules.clone()).unwrap();
    let mut ops = Vec::new();
    let legal = legal_as_reference("locustep", &mut pos, &rules);
    let letter = |p: u8| pos.variant().pieces[p as usize].letter;
    let d5 = *legal.iter().find(|m| m.text(letter) == "d7d5").unwrap();
    pos.make(&d5, &mut ops);
    // The raider takes e5 on the way north, then d5 in passing, landing on d6.
    let legal = legal_as_reference("locustep", &mut pos, &rules);
    let ep: Vec<&Move> = legal
        .iter()
        .filter(|m| m.kind == locust::board::moves::MoveKind::EnPassant)
        .collect();
    assert_eq!(ep.len(), 1, "{ep:?}");
    assert_eq!(ep[0].n_extras(), 2);
    pos.make(ep[0], &mut ops);
    assert_eq!(pos.fen().split(' ').next(), Some("4k3/8/3X4/8/8/8/8/4K3"));
}

/// Chess whose promotion zones reach the fifth rank (FSF's epicatomic does this): a pawn's
/// double step can end in the zone and promote.
const PROMOTING_DOUBLE_STEP: &str = "\
[promotingstep:chess]
promotionRegionWhite = *4 *5 *6 *7 *8
promotionRegionBlack = *5 *4 *3 *2 *1
promotionPieceTypes = b
startFen = 4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1
";

#[test]
fn a_double_step_that_promotes_cannot_be_taken_en_passant() {
    let rules = ini_variant(PROMOTING_DOUBLE_STEP);
    let mut pos = Position::new_game(rules.clone()).unwrap();
    let mut ops = Vec::new();
    let legal = legal_as_reference("promotingstep", &mut pos, &rules);
    let letter = |p: u8| pos.variant().pieces[p as usize].letter;
    let d5 = *legal.iter().find(|m| m.text(letter) == "d7d5b").unwrap();
    pos.make(&d5, &mut ops);
    // The man on d5 is a bishop now: nothing to take in passing, and no e.p. square in FEN.
    let legal = legal_as_reference("promotingstep", &mut pos, &rules);
    assert!(!texts(&pos, &legal).iter().any(|m| m == "e5d6"));
    assert_eq!(pos.fen().split(' ').nth(3), Some("-"));
}
