//! Which piece slots of XBoard's piece-to-char table a variant's hand types may take:
//! XBoard 4.9.1 judges drops by the slot a letter sits in, not by the engine's rules, so a
//! man that may be dropped where XBoard's rule for its slot forbids it must sit elsewhere.
//!
//! XBoard 4.9.1's own drop rules (its `LegalDrop`), read from its source: under the `shogi`
//! parent the pawn slot may not drop on the last rank nor on a file already holding its
//! most pawns of that side (one, two on a board of 7 ranks), the queen slot (shogi's lance)
//! not on the last rank, the knight slot not on the last two; under `seirawan` (S-chess)
//! every drop goes to the first rank; under any other parent the pawn slot may not drop on
//! the first or last rank. A reversi disc or an ataxx clone lettered `P` in the pawn slot
//! was forfeited for a legal drop on the edge (`P@f1`, flipello against Fairy-Stockfish).

use variants::rules::{PieceId, Variant};

/// XBoard's slots with drop rules of their own (its piece types in table order).
const PAWN_SLOT: usize = 0;
const KNIGHT_SLOT: usize = 1;
const QUEEN_SLOT: usize = 4;

/// What XBoard refuses for the man in one slot: the relative ranks (bit r: the dropper's
/// rank r, 0 its first) it may not be dropped on, and the most friends of its slot a file may
/// already hold for a drop there (`None`: no such rule).
struct SlotBan {
    ranks: u32,
    per_file: Option<u32>,
}

/// XBoard 4.9.1's drop ban for `slot` under `parent` on a board of `ranks` ranks.
fn slot_ban(parent: &str, slot: usize, ranks: u8) -> SlotBan {
    let last = 1u32 << (ranks - 1);
    let (ranks_banned, per_file) = match (parent, slot) {
        ("shogi", PAWN_SLOT) => (last, Some(if ranks == 7 { 2 } else { 1 })),
        ("shogi", QUEEN_SLOT) => (last, None),
        ("shogi", KNIGHT_SLOT) => (last | last >> 1, None),
        ("shogi", _) => (0, None),
        // S-chess: the first rank only, whatever the slot.
        ("seirawan", _) => (!1u32, None),
        (_, PAWN_SLOT) => (1 | last, None),
        _ => (0, None),
    };
    SlotBan {
        ranks: ranks_banned,
        per_file,
    }
}

/// The relative ranks (bit r as in [`SlotBan`]) on which the variant's rules may let either
/// side drop a man of type `p`: its side's drop region, less the pawn ranks for a pawn type,
/// the first rank only for a `sittuyinRookDrop` type, less the squares it could never leave
/// (shogi's last ranks), within its confining zone. The board's men
/// and hands are not looked at: these are the ranks a drop can ever reach.
fn droppable_ranks(v: &Variant, p: PieceId) -> u32 {
    let d = &v.drops;
    let piece = &v.pieces[usize::from(p)];
    let mut mask = 0u32;
    for (side, region) in d.region.iter().enumerate() {
        let zone = piece
            .confined
            .and_then(|z| v.zones.get(usize::from(z)))
            .map(|z| if side == 0 { &z.white } else { &z.black });
        for c in region.iter().filter(|c| c.rank < v.ranks) {
            let rel = if side == 0 { c } else { c.flip_rank(v.ranks) };
            let barred = (d.pawn_types.contains(&p) && d.pawn_drop_forbidden.contains(rel))
                || (rel.rank != 0 && d.first_rank_only.contains(&p))
                || piece.dead_squares.contains(rel)
                || zone.is_some_and(|z| !z.contains(c));
            if !barred {
                mask |= 1 << rel.rank;
            }
        }
    }
    mask
}

/// Whether a hand type `p` may sit in `slot` under `parent`: XBoard refuses none of the
/// drops the variant allows it (for a per-file limit, the type must have a no-doubled rule at
/// most as strict as XBoard's).
///
/// Outside shogi a type that promotes keeps XBoard's pawn slot whatever its drops: XBoard
/// 4.9.1 promotes only that slot's man (it appends its promotion choice to a pawn-slot
/// move onto the last rank), and a promotion is a commoner move than chessgi's first-rank
/// pawn drop, which XBoard then still refuses.
pub(super) fn hand_type_fits(v: &Variant, parent: &str, slot: usize, p: PieceId) -> bool {
    let promotes = v
        .pieces
        .get(usize::from(p))
        .is_some_and(|t| !t.promotions.is_empty());
    if slot == PAWN_SLOT && parent != "shogi" && promotes {
        return true;
    }
    let ban = slot_ban(parent, slot, v.ranks);
    let per_file_ok = ban
        .per_file
        .is_none_or(|most| v.drops.no_doubled.contains(&p) && v.drops.no_doubled_count <= most);
    ban.ranks & droppable_ranks(v, p) == 0 && per_file_ok
}

#[cfg(test)]
mod tests {
    use super::*;

    fn variant(name: &str) -> Variant {
        variants::load::builtin(name)
            .expect("built-in variant")
            .expect("compiles")
    }

    fn id(v: &Variant, letter: char) -> PieceId {
        let i = v
            .pieces
            .iter()
            .position(|p| p.letter == letter && !p.plus_form);
        PieceId::try_from(i.expect("letter in variant")).expect("small id")
    }

    #[test]
    fn edge_drops_keep_a_type_out_of_the_pawn_slot() {
        // Reversi discs and ataxx clones go anywhere; crazyhouse pawns never on ranks 1, 8.
        let flipello = variant("flipello");
        assert!(!hand_type_fits(
            &flipello,
            "fairy",
            PAWN_SLOT,
            id(&flipello, 'P')
        ));
        assert!(hand_type_fits(
            &flipello,
            "fairy",
            KNIGHT_SLOT,
            id(&flipello, 'P')
        ));
        let ataxx = variant("ataxx");
        assert!(!hand_type_fits(&ataxx, "fairy", PAWN_SLOT, id(&ataxx, 'P')));
        let loop_ = variant("loop");
        assert!(hand_type_fits(
            &loop_,
            "crazyhouse",
            PAWN_SLOT,
            id(&loop_, 'P')
        ));
        // chessgi's pawns may be dropped on the first rank (`firstRankPawnDrops`), but they
        // promote, which only XBoard's pawn slot can.
        let chessgi = variant("chessgi");
        let pawn = id(&chessgi, 'P');
        assert!(hand_type_fits(&chessgi, "crazyhouse", PAWN_SLOT, pawn));
        assert!(!hand_type_fits(&chessgi, "shogi", PAWN_SLOT, pawn));
    }

    #[test]
    fn shogi_slots_take_only_men_xboard_judges_rightly() {
        let shogi = variant("shogi");
        assert!(hand_type_fits(&shogi, "shogi", PAWN_SLOT, id(&shogi, 'P')));
        assert!(hand_type_fits(&shogi, "shogi", QUEEN_SLOT, id(&shogi, 'L')));
        assert!(hand_type_fits(
            &shogi,
            "shogi",
            KNIGHT_SLOT,
            id(&shogi, 'N')
        ));
        assert!(!hand_type_fits(&shogi, "shogi", PAWN_SLOT, id(&shogi, 'L')));
        // Torishogi: the swallow is the pawn (two a file); pheasant, falcon and quails may be
        // dropped on the last ranks.
        let tori = variant("torishogi");
        assert!(hand_type_fits(&tori, "shogi", PAWN_SLOT, id(&tori, 'S')));
        assert!(!hand_type_fits(&tori, "shogi", PAWN_SLOT, id(&tori, 'P')));
        assert!(!hand_type_fits(&tori, "shogi", KNIGHT_SLOT, id(&tori, 'F')));
        assert!(!hand_type_fits(&tori, "shogi", QUEEN_SLOT, id(&tori, 'L')));
        assert!(hand_type_fits(&tori, "shogi", 2, id(&tori, 'L')));
    }
}
