//! Pawn tables solved in a layout of their own: the pawns lead the index, so that the
//! positions of one placement of the pawns lie together and the row solver's un-moves and
//! verifications of pieces stay in a small stretch of memory; the values are then copied
//! into the table's own index, so that the table and its file are the same.

use std::sync::atomic::{AtomicU8, Ordering::Relaxed};

use super::board::MAX_MAPS;
use super::index::Indexer;
use super::material::{Material, MAX_MEN};
use super::propagate::parallel;
use super::solve::{open_bits, Conv, SolveError, Table};
use super::threads::Threads;

/// The order of the men in the solving layout (`perm[j]`: the table's man that is man `j`
/// there), when it differs from the table's: the men that promote (pawns) first, the rest
/// in their order. `None` when no man promotes, the pawns lead already, or alike men share
/// a factor of the index (the pawn-first layout would tell them apart).
pub fn pawns_first(table: &Table) -> Option<Vec<usize>> {
    let m = table.men();
    let promotes = |i: usize| {
        let (c, p) = (table.colour[i] as usize, table.piece[i] as usize);
        !table.rules.promo[c][p].choices.is_empty()
    };
    let mut perm: Vec<usize> = (0..m).filter(|&i| promotes(i)).collect();
    if perm.is_empty() || table.index.grouped() || perm.iter().enumerate().all(|(j, &i)| i == j) {
        return None;
    }
    perm.extend((0..m).filter(|&i| !promotes(i)));
    Some(perm)
}

/// The table with its men in the order `perm` (see [`pawns_first`]): same rules, symmetry
/// and sub-tables, fresh values.
pub fn twin(table: &Table, perm: &[usize]) -> Table {
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
    let fresh = || (0..index.size).map(|_| AtomicU8::new(0)).collect();
    let mut out = Table {
        material: Material {
            men: perm.iter().map(|&i| table.material.men[i]).collect(),
        },
        name: table.name.clone(),
        values: [fresh(), fresh()],
        open: open_bits(0),
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
    };
    out.convs = convs(table, &out, &inv);
    out
}

/// The conversions of `table` keyed and ordered for its twin `out` (`inv[i]`: the twin's
/// man for the table's man `i`).
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

/// Rows of the table copied together (see [`copy_back`]).
const BLOCK: usize = 64;

/// Copies the solved twin's values into the table's own index, on `threads` threads, and
/// its positions without a move (see [`copy_stuck`]). By blocks of the table's rows, the
/// last man's square outermost: the twin's values for one square of it across a block's
/// rows lie together (the next man varies fastest in both layouts), where row by row they
/// would be a stride apart, and strides of a power of two share one set of the cache.
pub fn copy_back(table: &Table, twin: &Table, perm: &[usize], threads: usize) {
    let ix = &table.index;
    let len = ix.domain(table.men() - 1).len();
    let blocks = (ix.size / len).div_ceil(BLOCK);
    let shares = LastShares::new(table, twin, perm);
    parallel(blocks, threads, |a, b| {
        for block in a..b {
            copy_block(table, twin, perm, &shares, block);
        }
    });
    copy_stuck(table, twin, perm);
}

/// The twin's share of the index for the table's last man, by symmetry map and local
/// index (`usize::MAX` outside its domain), and the map each square of it picks when it is
/// the twin's first man.
struct LastShares {
    share: Vec<Vec<usize>>,
    canon: Option<Vec<usize>>,
}

impl LastShares {
    fn new(table: &Table, twin: &Table, perm: &[usize]) -> LastShares {
        let (ix, tx) = (&table.index, &twin.index);
        let last = table.men() - 1;
        let jl = perm.iter().position(|&i| i == last).unwrap_or(0);
        let share = |k: usize, s: u8| {
            tx.local_of(jl, tx.maps[k][s as usize])
                .map_or(usize::MAX, |l| l * tx.stride_of(jl))
        };
        LastShares {
            share: (0..tx.maps.len())
                .map(|k| ix.domain(last).iter().map(|&s| share(k, s)).collect())
                .collect(),
            canon: (jl == 0).then(|| ix.domain(last).iter().map(|&s| tx.canon_of(s)).collect()),
        }
    }
}

/// The twin's index share of the men but the table's last, under each map
/// (`usize::MAX` where one stands outside its domain), for a position `sq` in the
/// table's order.
fn bases(twin: &Table, perm: &[usize], sq: &[u8]) -> [usize; MAX_MAPS] {
    let tx = &twin.index;
    let last = perm.len() - 1;
    let mut out = [usize::MAX; MAX_MAPS];
    for (k, b) in out.iter_mut().enumerate().take(tx.maps.len()) {
        let map = &tx.maps[k];
        let mut sum = 0usize;
        for (j, &i) in perm.iter().enumerate().filter(|&(_, &i)| i != last) {
            match tx.local_of(j, map[sq[i] as usize]) {
                Some(l) => sum += l * tx.stride_of(j),
                None => {
                    sum = usize::MAX;
                    break;
                }
            }
        }
        *b = sum;
    }
    out
}

/// [`copy_back`] for the rows of one block.
fn copy_block(table: &Table, twin: &Table, perm: &[usize], shares: &LastShares, block: usize) {
    let (ix, tx) = (&table.index, &twin.index);
    let m = table.men();
    let last = m - 1;
    let domain = ix.domain(last);
    let len = domain.len();
    let rows = block * BLOCK..((block + 1) * BLOCK).min(ix.size / len);
    let mut sq = [[0u8; MAX_MEN]; BLOCK];
    let mut base = [[0usize; MAX_MAPS]; BLOCK];
    // The map the twin's first man picks when it is not the last man, and the other
    // men's share under it.
    let mut own = [(0usize, 0usize); BLOCK];
    for (k, row) in rows.clone().enumerate() {
        ix.decode(row * len, &mut sq[k][..m]);
        base[k] = bases(twin, perm, &sq[k][..m]);
        let map = tx.canon_of(sq[k][perm[0]]);
        own[k] = (map, base[k][map]);
    }
    let n = rows.len();
    let start = rows.start * len;
    let (src, dst) = (&twin.values, &table.values);
    let (dst0, dst1) = (
        &dst[0][start..start + n * len],
        &dst[1][start..start + n * len],
    );
    for (b, &s) in domain.iter().enumerate() {
        let map = shares.canon.as_ref().map(|canon| canon[b]);
        let ls = shares.share[map.unwrap_or(0)][b];
        for k in 0..n {
            let (bs, ls) = match map {
                Some(map) => (base[k][map], ls),
                None => (own[k].1, shares.share[own[k].0][b]),
            };
            let at = if bs != usize::MAX && ls != usize::MAX {
                Some(bs + ls)
            } else {
                let mut tsq = [0u8; MAX_MEN];
                sq[k][last] = s;
                for (j, &i) in perm.iter().enumerate() {
                    tsq[j] = sq[k][i];
                }
                tx.encode(&tsq[..m])
            };
            if let Some(at) = at {
                dst0[k * len + b].store(src[0][at].load(Relaxed), Relaxed);
                dst1[k * len + b].store(src[1][at].load(Relaxed), Relaxed);
            }
        }
    }
}

/// The twin's positions without a move (few: mates and stalemates) as the table's: every
/// entry storing each.
fn copy_stuck(table: &Table, twin: &Table, perm: &[usize]) {
    let Some(stuck) = twin.stuck.get() else {
        return;
    };
    let ix = &table.index;
    let m = table.men();
    let mut out = [vec![0u64; ix.size / 64 + 1], vec![0u64; ix.size / 64 + 1]];
    let (mut tsq, mut sq) = ([0u8; MAX_MEN], [0u8; MAX_MEN]);
    for (x, words) in stuck.iter().enumerate() {
        for (w, &word) in words.iter().enumerate() {
            for bit in (0..64).filter(|b| word & (1 << b) != 0) {
                twin.index.decode(w * 64 + bit, &mut tsq[..m]);
                for (j, &i) in perm.iter().enumerate() {
                    sq[i] = tsq[j];
                }
                ix.encode_all(&sq[..m], |idx| out[x][idx / 64] |= 1 << (idx % 64));
            }
        }
    }
    // Set once: a table is solved once.
    let _ = table.stuck.set(out);
}

/// Solves `table` through its pawn-first twin (see [`pawns_first`]) with `solve`.
pub fn solve_twin(
    table: &Table,
    perm: &[usize],
    threads: &Threads,
    solve: impl FnOnce(&Table) -> Result<(), SolveError>,
) -> Result<(), SolveError> {
    let t = twin(table, perm);
    solve(&t)?;
    copy_back(table, &t, perm, threads.get());
    Ok(())
}
