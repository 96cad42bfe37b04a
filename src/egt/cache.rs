//! Table files: a versioned header (variant fingerprint, material, metric, rules, symmetry,
//! size), the values of both sides, and a checksum over all of it. A file that is short,
//! damaged or made for something else is refused, and the caller rebuilds.

use std::io::{Read, Write};
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

/// Words [`Checksum`] hashes side by side.
const LANES: usize = 4;

/// Bytes per word of [`Checksum`].
const WORD: usize = 8;

/// Bytes [`Checksum`] takes at a time: one word per lane.
const BLOCK: usize = WORD * LANES;

/// Bytes a table file is read or written by at a time: a buffer that stays in the cache
/// while it is checked and copied, in place of a second copy of the whole file.
const CHUNK: usize = 1 << 16;

/// The file's checksum, fed in pieces: FNV-1a's step on 8-byte words in [`LANES`]
/// independent chains (the byte-by-byte chain waits on one multiply per byte: 40 ms for
/// the 30 MB of KRvKP's sub-tables), the lanes and the bytes left over then folded by
/// [`fnv`]. Each step is a bijection of the lane's state for a given word, so a changed
/// word changes its lane. The sum depends on the bytes only, not on how they were cut.
struct Checksum {
    lanes: [u64; LANES],
    /// Bytes of an unfinished block.
    tail: [u8; BLOCK],
    filled: usize,
}

impl Checksum {
    fn new() -> Checksum {
        Checksum {
            lanes: std::array::from_fn(|k| FNV_START ^ k as u64),
            tail: [0; BLOCK],
            filled: 0,
        }
    }

    fn update(&mut self, mut data: &[u8]) {
        if self.filled > 0 {
            let take = data.len().min(BLOCK - self.filled);
            self.tail[self.filled..self.filled + take].copy_from_slice(&data[..take]);
            self.filled += take;
            data = &data[take..];
            if self.filled < BLOCK {
                return;
            }
            let block = self.tail;
            self.blocks(&block);
            self.filled = 0;
        }
        let whole = data.len() - data.len() % BLOCK;
        self.blocks(&data[..whole]);
        let rest = &data[whole..];
        self.tail[..rest.len()].copy_from_slice(rest);
        self.filled = rest.len();
    }

    /// Steps the lanes over `data`, whole blocks.
    fn blocks(&mut self, data: &[u8]) {
        for block in data.chunks_exact(BLOCK) {
            for (h, w) in self.lanes.iter_mut().zip(block.chunks_exact(WORD)) {
                let mut word = [0u8; WORD];
                word.copy_from_slice(w);
                *h = (*h ^ u64::from_le_bytes(word)).wrapping_mul(FNV_PRIME);
            }
        }
    }

    fn finish(&self) -> u64 {
        let mut h = fnv(&self.tail[..self.filled], FNV_START);
        for lane in self.lanes {
            h = fnv(&lane.to_le_bytes(), h);
        }
        h
    }
}

/// The checksum of `data` in one piece.
#[cfg(test)]
fn checksum(data: &[u8]) -> u64 {
    let mut sum = Checksum::new();
    sum.update(data);
    sum.finish()
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
    let mut f = std::io::BufWriter::with_capacity(CHUNK, std::fs::File::create(&tmp)?);
    let head = header(t);
    let mut sum = Checksum::new();
    sum.update(&head);
    f.write_all(&head)?;
    let mut buf = vec![0u8; CHUNK];
    for side in &t.values {
        for part in side.chunks(CHUNK) {
            let bytes = &mut buf[..part.len()];
            for (b, v) in bytes.iter_mut().zip(part) {
                *b = v.load(Relaxed);
            }
            sum.update(bytes);
            f.write_all(bytes)?;
        }
    }
    f.write_all(&sum.finish().to_le_bytes())?;
    f.into_inner().map_err(|e| e.into_error())?;
    std::fs::rename(&tmp, &path)?;
    Ok(path)
}

/// Fills a table from its cache file, if the file is whole and is this table. Read in
/// chunks straight into the table (the table is the caller's alone, so plain byte copies);
/// a file refused part way leaves every entry zero, as a new table's are (the solver
/// relies on that).
pub fn load(dir: &Path, t: &mut Table) -> Result<(), CacheError> {
    let (path, head, size) = (file_of(dir, t), header(t), t.index.size);
    let [white, black] = &mut t.values;
    let read = read(&path, &head, size, |side, at, bytes| {
        let values = if side == 0 { &mut *white } else { &mut *black };
        for (v, &b) in values[at..at + bytes.len()].iter_mut().zip(bytes) {
            *v.get_mut() = b;
        }
    });
    if read.is_err() {
        for v in t.values.iter_mut().flatten() {
            *v.get_mut() = 0;
        }
    }
    read
}

/// Checks a table's cache file as [`load`] does, without reading its values into the
/// table.
pub fn check(dir: &Path, t: &Table) -> Result<(), CacheError> {
    read(&file_of(dir, t), &header(t), t.index.size, |_, _, _| {})
}

/// Reads the file at `path`, made for the table with header `head` and `size` entries per
/// side: `body(side, first entry, bytes)` receives its values a chunk at a time, and the
/// file is refused unless its length, header and checksum are right.
fn read(
    path: &Path,
    head: &[u8],
    size: usize,
    mut body: impl FnMut(usize, usize, &[u8]),
) -> Result<(), CacheError> {
    let refused = |why| Err(CacheError::Refused(path.to_path_buf(), why));
    let mut f = std::fs::File::open(path)?;
    if f.metadata()?.len() != (head.len() + 2 * size + 8) as u64 {
        return refused("wrong length (truncated or foreign)");
    }
    let mut buf = vec![0u8; CHUNK.max(head.len())];
    f.read_exact(&mut buf[..head.len()])?;
    if buf[..head.len()] != *head {
        return refused("header does not match this table");
    }
    let mut sum = Checksum::new();
    sum.update(head);
    for side in 0..2 {
        for at in (0..size).step_by(CHUNK) {
            let bytes = &mut buf[..CHUNK.min(size - at)];
            f.read_exact(bytes)?;
            sum.update(bytes);
            body(side, at, bytes);
        }
    }
    let mut stored = [0u8; 8];
    f.read_exact(&mut stored)?;
    if sum.finish() != u64::from_le_bytes(stored) {
        return refused("checksum mismatch (damaged)");
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The sum of bytes fed in pieces of every size is the sum of the bytes in one piece,
    /// and any changed byte changes it.
    #[test]
    fn checksum_ignores_how_the_bytes_are_cut() {
        let data: Vec<u8> = (0..1000u32).map(|i| (i * 7919 % 251) as u8).collect();
        let whole = checksum(&data);
        for piece in [1, 3, 31, 32, 33, 100, 999] {
            let mut sum = Checksum::new();
            data.chunks(piece).for_each(|p| sum.update(p));
            assert_eq!(sum.finish(), whole, "pieces of {piece}");
        }
        for at in [0, 31, 32, 500, 998, 999] {
            let mut changed = data.clone();
            changed[at] ^= 1;
            assert_ne!(checksum(&changed), whole, "byte {at}");
        }
    }
}
