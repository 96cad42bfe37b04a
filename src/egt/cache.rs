//! Table files: a versioned header (variant fingerprint, material, metric, rules, symmetry,
//! size), the values of both sides, the positions without a legal move when the solver
//! recorded them, and a checksum over all of it (the values through their segments' sums,
//! so that threads may write and sum segments side by side). A file that is short, damaged
//! or made for something else is refused, and the caller rebuilds.

use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize};
use std::sync::Mutex;

use super::rules::Rules;
use super::solve::{set_bits, Metric, Table};
use super::value::is_loss;

const MAGIC: &[u8; 8] = b"LOCUSTTB";
/// 3: alike men indexed as a set (a pair of bishops: one entry for both orders).
/// 4: the body's checksum by [`checksum`] (word lanes), not byte by byte.
/// 5: the positions without a legal move after the values (see [`save`]).
/// 6: en passant played (a table of version 5 with a double step against an enemy pawn
/// held values without it) and chu's promotion on entering the zone.
/// 7: a pawn table of the row solver holds its pawns first (see `layout`).
/// 8: and a piece last where a royal was (see `layout::row_order`).
/// 9: the values summed a [`SEGMENT`] at a time, the segments' sums into the file's.
const VERSION: u32 = 9;

/// The count of a side's positions without a legal move when the solver did not record
/// them (the statistics then look for a move in every draw).
const NOT_RECORDED: u64 = u64::MAX;

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

/// Bytes of a side's values summed apart (a whole number of chunks): the file's checksum
/// takes each segment's sum in place of its bytes, so that [`save`]'s threads each copy,
/// sum and write segments of their own (a pawn table's save was a single thread's 10 ms at
/// the end of its build).
const SEGMENT: usize = 16 * CHUNK;

const _: () = assert!(SEGMENT % CHUNK == 0);

/// The read buffer of a table file: smaller than [`CHUNK`], so that the values, read a
/// chunk at a time, go from the file straight into the chunk (a reader passes reads of at
/// least its buffer's size by once it is empty); the header and the list of positions
/// without a move go through it. As large as a chunk, every chunk was copied twice (the
/// header leaves the buffer part full): a sixth of reading KPvKP's sub-tables.
const READ_BUFFER: usize = 1 << 12;

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
/// After the values, per side, the number of positions without a legal move and their
/// indices (8 bytes each, or [`NOT_RECORDED`] alone): the statistics of a table read back
/// then count mates and stalemates from them, as after a solve, instead of generating moves
/// for every draw (2.5 s of a cached KBBvKN's 2.7). Not synced to the disk: a file the
/// system lost part of in a power cut fails its length or checksum and is rebuilt, and a
/// sync made each table's build wait for the disk (30-60 ms of a whole KQvKP build's 0.5 s
/// on this machine). The values are written on up to `threads` threads (see [`SEGMENT`]).
pub fn save(dir: &Path, t: &Table, threads: usize) -> Result<PathBuf, CacheError> {
    Writer::create(dir, t)?.finish(t, threads)
}

/// A table's file being written (see [`save`]), set up when the solve starts: the values
/// a [`SEGMENT`] at a time, each by the first thread to take it, and the rest at the end.
/// A thread the solve has no more work for writes the segments already final
/// ([`Writer::write_ready`]): a pawn table's last slices run alone for 10-20 ms, as long
/// as the whole file's write after them took. Dropped unfinished, it removes its file.
#[derive(Debug)]
pub struct Writer {
    path: PathBuf,
    tmp: PathBuf,
    head: Vec<u8>,
    /// Per segment (side 0's, then side 1's): its sum, once written.
    sums: Vec<AtomicU64>,
    /// Per segment: taken by a thread to write.
    taken: Vec<AtomicBool>,
    /// The file exists, its header written: made by the first thread with a segment to
    /// write (near the solve's end), so that a build cut short (an engine stopped in the
    /// middle of a game) leaves no file behind.
    started: Mutex<bool>,
    /// The first write that failed: the file is not finished then.
    failed: Mutex<Option<std::io::Error>>,
    finished: bool,
}

impl Writer {
    /// The file of table `t` in `dir`, not started yet (see [`Writer::start`]).
    pub fn create(dir: &Path, t: &Table) -> Result<Writer, CacheError> {
        std::fs::create_dir_all(dir)?;
        let path = file_of(dir, t);
        // A name of its own: two engines sharing a cache folder may build one table at the
        // same time (each renames a whole file of the same bytes into place).
        static WRITERS: AtomicUsize = AtomicUsize::new(0);
        let writer = WRITERS.fetch_add(1, Relaxed);
        let tmp = path.with_extension(format!("{}-{writer}.tmp", std::process::id()));
        let count = 2 * t.index.size.div_ceil(SEGMENT);
        Ok(Writer {
            path,
            tmp,
            head: header(t),
            sums: (0..count).map(|_| AtomicU64::new(0)).collect(),
            taken: (0..count).map(|_| AtomicBool::new(false)).collect(),
            started: Mutex::new(false),
            failed: Mutex::new(None),
            finished: false,
        })
    }

    /// Makes the file with its header, once.
    fn start(&self) -> std::io::Result<()> {
        let mut started = self.started.lock().map_err(|_| std::io::ErrorKind::Other)?;
        if !*started {
            std::fs::File::create(&self.tmp)?.write_all(&self.head)?;
            *started = true;
        }
        Ok(())
    }

    /// Writes the segments no thread has taken whose entries (the same of both sides)
    /// `ready` says are final.
    pub fn write_ready(&self, t: &Table, ready: &dyn Fn(std::ops::Range<usize>) -> bool) {
        self.write_segments(t, Some(ready));
    }

    /// Writes the segments no thread has taken (those `ready` allows, when given); a failure
    /// is kept for [`Writer::finish`].
    fn write_segments(&self, t: &Table, ready: Option<&dyn Fn(std::ops::Range<usize>) -> bool>) {
        let size = t.index.size;
        let per_side = size.div_ceil(SEGMENT);
        let mut out: Option<(std::fs::File, Vec<u8>)> = None;
        let mut write = || -> std::io::Result<()> {
            for (k, sum) in self.sums.iter().enumerate() {
                let (side, start) = (k / per_side, k % per_side * SEGMENT);
                let range = start..size.min(start + SEGMENT);
                if ready.is_some_and(|ready| !ready(range.clone()))
                    || self.taken[k].swap(true, Relaxed)
                {
                    continue;
                }
                let (file, buf) = match out {
                    Some(ref mut open) => open,
                    None => {
                        self.start()?;
                        let file = std::fs::OpenOptions::new().write(true).open(&self.tmp)?;
                        out.insert((file, vec![0u8; CHUNK]))
                    }
                };
                let at = self.head.len() + side * size + start;
                file.seek(SeekFrom::Start(at as u64))?;
                let mut seg = Checksum::new();
                for part in t.values[side][range].chunks(CHUNK) {
                    let bytes = &mut buf[..part.len()];
                    for (b, v) in bytes.iter_mut().zip(part) {
                        *b = v.load(Relaxed);
                    }
                    seg.update(bytes);
                    file.write_all(bytes)?;
                }
                sum.store(seg.finish(), Relaxed);
            }
            Ok(())
        };
        if let Err(e) = write() {
            // The others are not taken from now on: the file will not be finished.
            self.taken.iter().for_each(|t| t.store(true, Relaxed));
            if let Ok(mut first) = self.failed.lock() {
                first.get_or_insert(e);
            }
        }
    }

    /// Writes the segments left on up to `threads` threads, then the positions without a
    /// move and the checksum, and gives the file its name.
    pub fn finish(mut self, t: &Table, threads: usize) -> Result<PathBuf, CacheError> {
        let left = self.taken.iter().filter(|k| !k.load(Relaxed)).count();
        // A table of less than a segment a side is written as fast as a thread starts.
        let threads = if t.index.size < SEGMENT {
            1
        } else {
            threads.min(left).max(1)
        };
        std::thread::scope(|scope| {
            for _ in 1..threads {
                scope.spawn(|| self.write_segments(t, None));
            }
            self.write_segments(t, None);
        });
        if let Some(e) = self.failed.lock().ok().and_then(|mut f| f.take()) {
            return Err(e.into());
        }
        let mut sum = Checksum::new();
        sum.update(&self.head);
        for seg in &self.sums {
            sum.update(&seg.load(Relaxed).to_le_bytes());
        }
        self.start()?;
        let mut file = std::fs::OpenOptions::new().write(true).open(&self.tmp)?;
        file.seek(SeekFrom::Start((self.head.len() + 2 * t.index.size) as u64))?;
        let mut f = Summed {
            out: std::io::BufWriter::with_capacity(CHUNK, file),
            sum,
        };
        for side in 0..2 {
            let Some(stuck) = t.stuck.get() else {
                f.write(&NOT_RECORDED.to_le_bytes())?;
                continue;
            };
            // Counted in 64 bits: a table of more than 2^32 entries may have as many.
            let count: u64 = stuck[side].iter().map(|w| u64::from(w.count_ones())).sum();
            f.write(&count.to_le_bytes())?;
            for idx in set_bits(&stuck[side], 0..t.index.size) {
                f.write(&(idx as u64).to_le_bytes())?;
            }
        }
        let sum = f.sum.finish();
        f.out.write_all(&sum.to_le_bytes())?;
        f.out.into_inner().map_err(|e| e.into_error())?;
        std::fs::rename(&self.tmp, &self.path)?;
        self.finished = true;
        Ok(self.path.clone())
    }
}

impl Drop for Writer {
    fn drop(&mut self) {
        if !self.finished && self.started.lock().is_ok_and(|s| *s) {
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}

/// A file being written, with the checksum of what went into it.
struct Summed<W: Write> {
    out: W,
    sum: Checksum,
}

impl<W: Write> Summed<W> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.sum.update(bytes);
        self.out.write_all(bytes)
    }
}

/// Fills a table from its cache file, if the file is whole and is this table. Read in
/// chunks straight into the table (the table is the caller's alone, so plain byte copies);
/// a file refused part way leaves every entry zero, as a new table's are (the solver
/// relies on that).
pub fn load(dir: &Path, t: &mut Table) -> Result<(), CacheError> {
    let (path, head, size) = (file_of(dir, t), header(t), t.index.size);
    let [white, black] = &mut t.values;
    // Whether any value was written: a file missing or refused at its header leaves the
    // table as it was, with nothing to clear (clearing a fresh table's every byte cost more
    // than reading a small sub-table).
    let mut written = false;
    // Whether each side to move loses somewhere: found as the bytes are copied, without a
    // branch. A side not kept is not looked at, and may lose for all its table says (it is
    // never read).
    let mut losses = [white.is_empty(), black.is_empty()];
    let read = read(&path, &head, size, |side, at, bytes| {
        let values = if side == 0 { &mut *white } else { &mut *black };
        // A side the table has no room for is only checked (see `Builder::preload`).
        if let Some(values) = values.get_mut(at..at + bytes.len()) {
            written = true;
            let mut lost = false;
            for (v, &b) in values.iter_mut().zip(bytes) {
                *v.get_mut() = b;
                lost |= is_loss(b);
            }
            losses[side] |= lost;
        }
    });
    match read {
        Ok(stuck) => {
            if let Some(stuck) = stuck {
                let _ = t.stuck.set(stuck);
            }
            let _ = t.losses.set(losses);
            // Solved: no position is undecided, and a probe need not look for a bit.
            t.open = [Vec::new(), Vec::new()];
            Ok(())
        }
        Err(e) => {
            if written {
                for v in t.values.iter_mut().flatten() {
                    *v.get_mut() = 0;
                }
            }
            // A missing file is the usual case; a damaged, foreign or unreadable one is
            // worth a word, since the table is built again instead.
            let missing =
                matches!(&e, CacheError::Io(io) if io.kind() == std::io::ErrorKind::NotFound);
            if !missing {
                log::warn!("{}: cached file not used ({e}); building it again", t.name);
            }
            Err(e)
        }
    }
}

/// Checks a table's cache file as [`load`] does, without reading its values into the
/// table.
pub fn check(dir: &Path, t: &Table) -> Result<(), CacheError> {
    read(&file_of(dir, t), &header(t), t.index.size, |_, _, _| {}).map(|_| ())
}

/// A table file being read, with the checksum of what came out of it.
struct Reader<'a> {
    path: &'a Path,
    file: std::io::BufReader<std::fs::File>,
    sum: Checksum,
}

impl Reader<'_> {
    fn refused<T>(&self, why: &'static str) -> Result<T, CacheError> {
        Err(CacheError::Refused(self.path.to_path_buf(), why))
    }

    /// Fills `bytes` from the file (a file too short is refused).
    fn read(&mut self, bytes: &mut [u8]) -> Result<(), CacheError> {
        self.fill(bytes)?;
        self.sum.update(bytes);
        Ok(())
    }

    /// As [`Reader::read`], the bytes left out of the file's sum (a segment of values,
    /// summed apart).
    fn fill(&mut self, bytes: &mut [u8]) -> Result<(), CacheError> {
        match self.file.read_exact(bytes) {
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => {
                self.refused("wrong length (truncated or foreign)")
            }
            Err(e) => Err(e.into()),
            Ok(()) => Ok(()),
        }
    }

    fn word(&mut self) -> Result<u64, CacheError> {
        let mut w = [0u8; 8];
        self.read(&mut w)?;
        Ok(u64::from_le_bytes(w))
    }
}

/// Reads the file at `path`, made for the table with header `head` and `size` entries per
/// side: `body(side, first entry, bytes)` receives its values a chunk at a time, and the
/// file is refused unless its length, header and checksum are right. Returns the positions
/// without a legal move, one bit per entry, when the file has them.
fn read(
    path: &Path,
    head: &[u8],
    size: usize,
    mut body: impl FnMut(usize, usize, &[u8]),
) -> Result<Option<[Vec<u64>; 2]>, CacheError> {
    // A FIFO or device under a table's name would block the open or never end.
    if !std::fs::metadata(path)?.is_file() {
        return Err(CacheError::Refused(
            path.to_path_buf(),
            "not a regular file",
        ));
    }
    let file = std::fs::File::open(path)?;
    let mut f = Reader {
        path,
        file: std::io::BufReader::with_capacity(READ_BUFFER, file),
        sum: Checksum::new(),
    };
    let mut buf = vec![0u8; CHUNK.max(head.len())];
    f.read(&mut buf[..head.len()])?;
    if buf[..head.len()] != *head {
        // Magic, then version: a file of another version is named as such.
        let version = MAGIC.len()..MAGIC.len() + 4;
        if buf.starts_with(MAGIC) && buf[version.clone()] != head[version] {
            return f.refused("made by another version of Locust's table format");
        }
        return f.refused("header does not match this table");
    }
    for side in 0..2 {
        let mut seg = Checksum::new();
        for at in (0..size).step_by(CHUNK) {
            let bytes = &mut buf[..CHUNK.min(size - at)];
            f.fill(bytes)?;
            seg.update(bytes);
            body(side, at, bytes);
            let end = at + bytes.len();
            if end % SEGMENT == 0 || end == size {
                f.sum.update(&seg.finish().to_le_bytes());
                seg = Checksum::new();
            }
        }
    }
    let stuck = read_stuck(&mut f, size)?;
    let sum = f.sum.finish();
    let mut stored = [0u8; 8];
    f.read(&mut stored)?;
    if sum != u64::from_le_bytes(stored) {
        return f.refused("checksum mismatch (damaged)");
    }
    if f.file.read(&mut [0u8; 1])? != 0 {
        return f.refused("wrong length (bytes after the checksum)");
    }
    Ok(stuck)
}

/// The positions without a legal move of both sides (see [`save`]), as bits; `None` when
/// the solver did not record them.
fn read_stuck(f: &mut Reader<'_>, size: usize) -> Result<Option<[Vec<u64>; 2]>, CacheError> {
    let mut sides = [None, None];
    for side in &mut sides {
        let count = f.word()?;
        if count == NOT_RECORDED {
            continue;
        }
        if count > size as u64 {
            return f.refused("more positions without a move than the table has");
        }
        let mut bits = vec![0u64; size.div_ceil(64)];
        for _ in 0..count {
            let idx = f.word()?;
            if idx >= size as u64 {
                return f.refused("a position without a move outside the table");
            }
            bits[(idx / 64) as usize] |= 1 << (idx % 64);
        }
        *side = Some(bits);
    }
    Ok(match sides {
        [Some(white), Some(black)] => Some([white, black]),
        _ => None,
    })
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

    /// Only a regular file is read: a directory (as a FIFO or a device would be) is refused
    /// before it is opened.
    #[test]
    fn only_a_regular_file_is_read() {
        let dir = std::env::temp_dir().join(format!("locust-not-a-file-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap_or_else(|_| unreachable!());
        let got = read(&dir, b"head", 1, |_, _, _| {});
        assert!(
            matches!(&got, Err(CacheError::Refused(_, why)) if *why == "not a regular file"),
            "{got:?}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A file written in parts as they become final (every other segment first, then the
    /// rest at the end) is the file written at once; none is made before a segment is
    /// written, and one dropped unfinished leaves no file.
    #[test]
    fn a_file_written_in_parts_is_the_file_written_at_once() {
        use crate::egt::{material::Material, rules::Rules, Builder, Settings};
        let all = variants::builtins().unwrap_or_else(|_| unreachable!());
        let v = variants::find(&all, "chess").unwrap_or_else(|| unreachable!());
        let dir = std::env::temp_dir().join(format!("locust-writer-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let rules = Rules::new(v, None, false).unwrap_or_else(|_| unreachable!());
        let settings = Settings {
            cache: Some(dir.clone()),
            ..Settings::default()
        };
        let m = Material::parse(v, "KQvKR").unwrap_or_else(|_| unreachable!());
        let t = Builder::new(rules, settings)
            .table(&m)
            .unwrap_or_else(|_| unreachable!());
        assert!(t.index.size > 2 * SEGMENT, "three segments a side at least");
        let path = file_of(&dir, &t);
        let whole = std::fs::read(&path).unwrap_or_default();
        // The body is both sides' values in order, after the header.
        let head = header(&t).len();
        for side in 0..2 {
            let body = &whole[head + side * t.index.size..][..t.index.size];
            assert!((body.iter().zip(&t.values[side])).all(|(&b, v)| b == v.load(Relaxed)));
        }
        std::fs::remove_file(&path).unwrap_or_else(|_| unreachable!());
        let w = Writer::create(&dir, &t).unwrap_or_else(|_| unreachable!());
        w.write_ready(&t, &|r| r.start / SEGMENT % 2 == 0);
        let written = w.taken.iter().filter(|k| k.load(Relaxed)).count();
        assert_eq!(written, 2 * t.index.size.div_ceil(2 * SEGMENT));
        assert_eq!(w.finish(&t, 2).ok().as_ref(), Some(&path));
        assert!(std::fs::read(&path).unwrap_or_default() == whole);
        std::fs::remove_file(&path).unwrap_or_else(|_| unreachable!());
        let no_tmp = || {
            std::fs::read_dir(&dir).is_ok_and(|d| {
                d.flatten()
                    .all(|f| f.path().extension().is_none_or(|e| e != "tmp"))
            })
        };
        let w = Writer::create(&dir, &t).unwrap_or_else(|_| unreachable!());
        w.write_ready(&t, &|_| false);
        assert!(no_tmp(), "no file before a segment is written");
        w.write_ready(&t, &|_| true);
        assert!(!no_tmp());
        drop(w);
        assert!(no_tmp() && !path.exists());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
