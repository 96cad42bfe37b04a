//! Table files: a versioned header (variant fingerprint, material, metric, rules, symmetry,
//! size), the values of both sides, and a checksum over all of it. A file that is short,
//! damaged or made for something else is refused, and the caller rebuilds.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering::Relaxed;

use super::rules::Rules;
use super::solve::{Metric, Table};

const MAGIC: &[u8; 8] = b"LOCUSTTB";
/// 3: alike men indexed as a set (a pair of bishops: one entry for both orders).
/// 4: the body's checksum by [`checksum`] (word lanes), not byte by byte.
const VERSION: u32 = 4;

/// Why a cache file was refused.
#[derive(Debug, thiserror::Error)]
pub enum CacheError {
    /// Reading or writing failed.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// The file is not the table asked for, or is damaged.
    #[error("{0}: {1}")]
    Refused(PathBuf, &'static str),
}

/// FNV-1a, 64 bits.
fn fnv(data: &[u8], mut h: u64) -> u64 {
    for &b in data {
        h ^= b as u64;
        h = h.wrapping_mul(FNV_PRIME);
    }
    h
}

const FNV_START: u64 = 0xcbf2_9ce4_8422_2325;

/// FNV's 64-bit prime.
const FNV_PRIME: u64 = 0x100_0000_01b3;

/// Words [`checksum`] hashes side by side.
const LANES: usize = 4;

/// Bytes per word of [`checksum`].
const WORD: usize = 8;

/// The file's checksum: FNV-1a's step on 8-byte words in [`LANES`] independent chains (the
/// byte-by-byte chain waits on one multiply per byte: 40 ms for the 30 MB of KRvKP's
/// sub-tables), the lanes and the bytes left over then folded by [`fnv`]. Each step is a
/// bijection of the lane's state for a given word, so a changed word changes its lane.
fn checksum(data: &[u8]) -> u64 {
    let mut lanes: [u64; LANES] = std::array::from_fn(|k| FNV_START ^ k as u64);
    let mut blocks = data.chunks_exact(WORD * LANES);
    for block in &mut blocks {
        for (h, w) in lanes.iter_mut().zip(block.chunks_exact(WORD)) {
            let mut word = [0u8; WORD];
            word.copy_from_slice(w);
            *h = (*h ^ u64::from_le_bytes(word)).wrapping_mul(FNV_PRIME);
        }
    }
    let mut h = fnv(blocks.remainder(), FNV_START);
    for lane in lanes {
        h = fnv(&lane.to_le_bytes(), h);
    }
    h
}

/// The header: everything that must match for a file to be this table.
fn header(t: &Table) -> Vec<u8> {
    let v = &t.rules.variant;
    // The rules as compiled, not the variant's name or origin: a changed file gives new tables.
    let fingerprint = format!(
        "{}x{} {:?} {:?} {:?} {:?} {:?}",
        v.files, v.ranks, v.pieces, v.zones, v.promotion, v.end, v.capture_matrix
    );
    let mut h = Vec::new();
    h.extend_from_slice(MAGIC);
    h.extend_from_slice(&VERSION.to_le_bytes());
    h.extend_from_slice(&fnv(fingerprint.as_bytes(), FNV_START).to_le_bytes());
    let rules = format!("{:?} {:?}", t.metric, t.rules.game);
    h.extend_from_slice(&fnv(rules.as_bytes(), FNV_START).to_le_bytes());
    h.extend_from_slice(&(t.index.maps.len() as u32).to_le_bytes());
    h.extend_from_slice(&(t.index.size as u64).to_le_bytes());
    h.push(u8::from(t.index.grouped()));
    h.extend_from_slice(&(t.name.len() as u32).to_le_bytes());
    h.extend_from_slice(t.name.as_bytes());
    h
}

/// The file a table is kept in.
pub fn file_of(dir: &Path, t: &Table) -> PathBuf {
    path_of(dir, &t.rules, &t.name, t.metric)
}

/// The file the table named `name` (a material's name) is kept in under `rules`.
pub fn path_of(dir: &Path, rules: &Rules, name: &str, metric: Metric) -> PathBuf {
    let game = format!("{metric:?} {:?}", rules.game);
    let tag = fnv(game.as_bytes(), FNV_START) & 0xffff;
    let safe: String = name
        .chars()
        .map(|c| match c {
            '+' => 'p',
            '\'' => 'q',
            '!' => 'x',
            c => c,
        })
        .collect();
    dir.join(format!(
        "{}-{}-{:?}-{tag:04x}.ltb",
        rules.variant.name, safe, metric
    ))
}

/// Writes a solved table (to a temporary name, then renamed, so a crash leaves no half file).
/// Not synced to the disk: a file the system lost part of in a power cut fails its length
/// or checksum and is rebuilt, and a sync made each table's build wait for the disk (30-60
/// ms of a whole KQvKP build's 0.5 s on this machine).
pub fn save(dir: &Path, t: &Table) -> Result<PathBuf, CacheError> {
    std::fs::create_dir_all(dir)?;
    let path = file_of(dir, t);
    let tmp = path.with_extension("tmp");
    let mut data = header(t);
    data.reserve(2 * t.index.size + 8);
    for side in &t.values {
        data.extend(side.iter().map(|v| v.load(Relaxed)));
    }
    let sum = checksum(&data);
    data.extend_from_slice(&sum.to_le_bytes());
    let mut f = std::fs::File::create(&tmp)?;
    f.write_all(&data)?;
    std::fs::rename(&tmp, &path)?;
    Ok(path)
}

/// Fills a table from its cache file, if the file is whole and is this table.
pub fn load(dir: &Path, t: &Table) -> Result<(), CacheError> {
    let path = file_of(dir, t);
    // Read whole at its size: no regrowing of the buffer.
    let data = std::fs::read(&path)?;
    let head = header(t);
    let expect = head.len() + 2 * t.index.size + 8;
    if data.len() != expect {
        return Err(CacheError::Refused(
            path,
            "wrong length (truncated or foreign)",
        ));
    }
    if data[..head.len()] != head[..] {
        return Err(CacheError::Refused(
            path,
            "header does not match this table",
        ));
    }
    let (body, sum) = data.split_at(expect - 8);
    let mut stored = [0u8; 8];
    stored.copy_from_slice(sum);
    if checksum(body) != u64::from_le_bytes(stored) {
        return Err(CacheError::Refused(path, "checksum mismatch (damaged)"));
    }
    let values = &body[head.len()..];
    for (side, chunk) in t.values.iter().zip(values.chunks(t.index.size)) {
        for (v, &b) in side.iter().zip(chunk) {
            v.store(b, Relaxed);
        }
    }
    Ok(())
}

/// The default cache folder: `$XDG_CACHE_HOME/locust/tables` or `~/.cache/locust/tables`.
pub fn default_dir() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))?;
    Some(base.join("locust").join("tables"))
}
