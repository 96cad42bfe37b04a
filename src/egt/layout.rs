//! The order of a table's men for the row solver: its pawns first, so that the positions
//! of one placement of the pawns lie together and the row solver's un-moves and
//! verifications of pieces stay in a small stretch of memory; and a piece last rather than
//! a royal, so that the row (the last man's squares, whose moves are word operations) is a
//! piece's (see `rows`). The table, its file and its probes use that order (positions from
//! outside are mapped through `Table::perm`): solved in another order, the values would be
//! copied over at the end, a tenth of a pawn table's time.

use super::index::Indexer;
use super::material::Material;
use super::solve::{open_bits, Conv, Table};
use super::word::zeroed_bytes;

/// The pawn-first order of a table's men (`perm[j]`: the table's man that is man `j` in
/// it), when it differs from the table's: the men that promote (pawns) first, the rest in
/// their order. `None` when no man promotes, the pawns lead already, or alike men share
/// a factor of the index (the pawn-first layout would tell them apart).
fn pawns_first(table: &Table) -> Option<Vec<usize>> {
    let m = table.men();
    let promotes = |i: usize| promotes(table, i);
    let mut perm: Vec<usize> = (0..m).filter(|&i| promotes(i)).collect();
    if perm.is_empty() || table.index.grouped() || perm.iter().enumerate().all(|(j, &i)| i == j) {
        return None;
    }
    perm.extend((0..m).filter(|&i| !promotes(i)));
    Some(perm)
}

/// The row solver's order of a table's men (`perm[j]`: the table's man that is man `j` in
/// it), when it differs from the table's: [`pawns_first`], then, when the last man is a
/// royal, the last man that is neither royal nor promotes moved to the end. A king's moves
/// are few, a piece's many: carried by the row's words they cost least (a piece at the end
/// already, as KQvKR's rook, stays). `None` when
/// alike men share a factor of the index, as for [`pawns_first`].
pub fn row_order(table: &Table) -> Option<Vec<usize>> {
    let m = table.men();
    if table.index.grouped() {
        return None;
    }
    let mut perm = pawns_first(table).unwrap_or_else(|| (0..m).collect());
    let royal = |i: usize| table.royals.iter().any(|&bits| bits >> i & 1 != 0);
    if perm.last().is_some_and(|&i| royal(i)) {
        // Not the first man: the index's symmetry is taken on it.
        if let Some(j) = (1..m)
            .rev()
            .find(|&j| !royal(perm[j]) && !promotes(table, perm[j]))
        {
            let man = perm.remove(j);
            perm.push(man);
        }
    }
    let identity = perm.iter().enumerate().all(|(j, &i)| i == j);
    (!identity).then_some(perm)
}

/// True when the table's man `i` promotes (a pawn).
fn promotes(table: &Table, i: usize) -> bool {
    let (c, p) = (table.colour[i] as usize, table.piece[i] as usize);
    !table.rules.promo[c][p].choices.is_empty()
}

/// The table with its men in the order `perm` (`perm[j]`: the table's man that becomes man
/// `j`): same rules, symmetry and sub-tables, fresh values (none when `table` has none: a
/// table being made, whose values come after its index, see `Builder::empty_table`).
pub fn reordered(table: &Table, perm: &[usize]) -> Table {
    let rules = &table.rules;
    let board = &rules.board;
    let group = (0..board.maps.len())
        .filter(|&k| table.index.maps.contains(&board.maps[k]))
        .fold(0u8, |acc, k| acc | 1 << k);
    let domains: Vec<Vec<u8>> = perm
        .iter()
        .map(|&i| {
            let d = rules.domain[table.colour[i] as usize][table.piece[i] as usize];
            d.squares().collect()
        })
        .collect();
    let index = Indexer::new(board, &domains, None, group);
    let mut inv = vec![0usize; perm.len()];
    for (j, &i) in perm.iter().enumerate() {
        inv[i] = j;
    }
    let size = if table.values[0].is_empty() {
        0
    } else {
        index.size
    };
    let fresh = || zeroed_bytes(size);
    // The canonical material's man of each new man: through the table's own order.
    let sorted = |i: usize| table.perm.as_ref().map_or(i, |p| p[i] as usize);
    let to_sorted: Vec<u8> = perm.iter().map(|&i| sorted(i) as u8).collect();
    let identity = to_sorted.iter().enumerate().all(|(j, &k)| j == k as usize);
    let mut out = Table {
        material: Material {
            men: perm.iter().map(|&i| table.material.men[i]).collect(),
        },
        perm: (!identity).then_some(to_sorted),
        name: table.name.clone(),
        values: [fresh(), fresh()],
        // The general solver's bits only where the source has them (see `Builder::empty_table`).
        open: if table.open[0].is_empty() {
            [Vec::new(), Vec::new()]
        } else {
            open_bits(size)
        },
        metric: table.metric,
        colour: perm.iter().map(|&i| table.colour[i]).collect(),
        piece: perm.iter().map(|&i| table.piece[i]).collect(),
        royal: table.royal.map(|r| inv[r]),
        promos: perm.iter().map(|&i| table.promos[i].clone()).collect(),
        royals: table.royals.map(|bits| {
            (0..perm.len())
                .filter(|&j| bits & (1 << j) != 0)
                .fold(0, |acc, j| acc | 1 << inv[j])
        }),
        convs: Vec::new(),
        rules: rules.clone(),
        index,
        stuck: Default::default(),
        counted: Default::default(),
        losses: Default::default(),
    };
    out.convs = convs(table, &out, &inv);
    out
}

/// The conversions of `table` keyed and ordered for its reordered copy `out` (`inv[i]`: the
/// copy's man for the table's man `i`).
fn convs(table: &Table, out: &Table, inv: &[usize]) -> Vec<Option<Conv>> {
    let m = table.men();
    let np = table.rules.variant.pieces.len();
    let mut convs: Vec<Option<Conv>> = (0..table.convs.len()).map(|_| None).collect();
    let promos = (0..m).flat_map(|i| (0..np).map(move |pc| Some((i, pc as u8))));
    for victim in (0..m).map(Some).chain([None]) {
        for promo in promos.clone().chain([None]) {
            let Some(Some(conv)) = table.convs.get(table.conv_key(victim, promo)) else {
                continue;
            };
            let key = out.conv_key(victim.map(|v| inv[v]), promo.map(|(i, pc)| (inv[i], pc)));
            if let Some(slot) = convs.get_mut(key) {
                *slot = Some(Conv {
                    table: conv.table.clone(),
                    order: conv.order.iter().map(|&o| inv[o as usize] as u8).collect(),
                    flip: conv.flip.clone(),
                });
            }
        }
    }
    convs
}
