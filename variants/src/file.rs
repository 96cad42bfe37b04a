//! Reading a text file a user or a GUI names (variant files, table seed files): bounded in
//! size, refused with a clear reason when it is a directory, a device, a pipe or too large,
//! so that a path like `/dev/zero` cannot make the engine read forever.

use std::io::Read;
use std::path::Path;

/// The largest text file read (64 MiB): far above any variant file (Fairy-Stockfish's
/// variants.ini is about 100 KB), far below what would stall the engine.
pub const MAX_TEXT_FILE_BYTES: u64 = 64 << 20;

/// The whole text of the regular file at `path`, or why it cannot be read.
pub fn read_text(path: &Path) -> Result<String, String> {
    // Asked before opening: opening a pipe without a writer would block.
    let meta = std::fs::metadata(path).map_err(|e| format!("cannot read: {e}"))?;
    if meta.is_dir() {
        return Err("cannot read: is a directory".to_string());
    }
    if !meta.is_file() {
        return Err("cannot read: not a regular file (a device or a pipe)".to_string());
    }
    let too_large = || format!("cannot read: larger than {MAX_TEXT_FILE_BYTES} bytes");
    if meta.len() > MAX_TEXT_FILE_BYTES {
        return Err(too_large());
    }
    let file = std::fs::File::open(path).map_err(|e| format!("cannot read: {e}"))?;
    let mut bytes = Vec::new();
    // Bounded again while reading: the file may grow after the size was asked.
    file.take(MAX_TEXT_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read: {e}"))?;
    if bytes.len() as u64 > MAX_TEXT_FILE_BYTES {
        return Err(too_large());
    }
    String::from_utf8(bytes).map_err(|_| "cannot read: not UTF-8 text".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_devices_directories_and_missing_files() {
        let refused = |p: &str| read_text(Path::new(p)).expect_err(p);
        assert!(refused("/dev/zero").contains("not a regular file"));
        assert!(refused("/").contains("is a directory"));
        assert!(refused("/no/such/file").starts_with("cannot read"));
    }

    #[test]
    fn reads_a_regular_file() {
        let path = std::env::temp_dir().join(format!("locust-read-text-{}", std::process::id()));
        std::fs::write(&path, "[x]\n").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(read_text(&path).as_deref(), Ok("[x]\n"));
        let _ = std::fs::remove_file(&path);
    }
}
