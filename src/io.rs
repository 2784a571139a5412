//! Reading the files a user names (rule files, saved games) with a bound on their size, and writing them
//! so that a failure never loses the file that was there.
//!
//! A path may name something endless (`/dev/zero`, a pipe) or huge; reading it whole before looking at its
//! size would exhaust memory, and opening a FIFO waits for a writer that may never come. [`read_limited`]
//! reads only regular files ([`open_regular`]), at most one byte past the limit, and refuses the file
//! there, so the memory used is bounded by the limit whatever the path names.
//!
//! [`write_atomic`] writes a new file beside the old one, syncs it, then renames it over the old one: a
//! full disk, an I/O error or a kill midway leaves the old file as it was.

use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::path::Path;

/// Why [`read_limited`] gave no bytes.
#[derive(Debug)]
pub enum ReadError {
    /// The file could not be opened or read.
    Io(std::io::Error),
    /// The file holds more than `limit` bytes (only `limit + 1` of them were read).
    TooLarge { limit: usize },
    /// The path names something other than a regular file: a folder, a FIFO, a device, a socket.
    NotAFile { what: &'static str },
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Io(e) => f.write_str(&io_message(e)),
            ReadError::TooLarge { limit } => write!(f, "larger than the limit of {}", size(*limit)),
            ReadError::NotAFile { what } => write!(f, "it is {what}, not a regular file"),
        }
    }
}

impl std::error::Error for ReadError {}

/// Reads the file at `path` whole if it holds at most `limit` bytes; refuses it after reading `limit + 1`
/// bytes otherwise. Use it for every file a user names, with the limit of what the file should be.
pub fn read_limited(path: &Path, limit: usize) -> Result<Vec<u8>, ReadError> {
    read_limited_from(open_regular(path)?, limit)
}

/// Opens `path` for reading if it names a regular file (after following links), and refuses anything
/// else without waiting: on Unix the file is opened non-blocking, so that a FIFO with no writer does not
/// hold the caller up, and the kind is read from the open file, so it cannot change between the look and
/// the open.
pub fn open_regular(path: &Path) -> Result<File, ReadError> {
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path).map_err(ReadError::Io)?;
    let kind = file.metadata().map_err(ReadError::Io)?.file_type();
    if !kind.is_file() {
        return Err(ReadError::NotAFile { what: kind_of(kind) });
    }
    Ok(file)
}

/// A file that is not a regular file, in words.
fn kind_of(kind: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a FIFO";
        }
        if kind.is_char_device() || kind.is_block_device() {
            return "a device";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    if kind.is_dir() {
        "a folder"
    } else {
        "something else"
    }
}

/// Writes `bytes` as the file at `path`, all or nothing: into a new file in the same folder, flushed and
/// synced to the disk, then renamed over `path`. On any failure the file that was at `path` is untouched
/// (and the new one removed); the error says what failed. A link at `path` is replaced, not followed.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_atomic_with(path, |file| file.write_all(bytes))
}

/// [`write_atomic`] with the writing done by `write`, which tests use to fail midway.
pub fn write_atomic_with(path: &Path, write: impl FnOnce(&mut File) -> std::io::Result<()>) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    // A hidden name that no listing of rule files or saves picks up while it is written.
    let prefix = format!(".{name}.");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp");
    // As a plain write would make it (the umask applies), not only for its owner as a temporary file is.
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
    let mut temp = builder.tempfile_in(dir)?;
    // A file replaced keeps its permissions.
    if let Ok(old) = std::fs::metadata(path) {
        let _ = temp.as_file().set_permissions(old.permissions());
    }
    write(temp.as_file_mut())?;
    temp.as_file_mut().flush()?;
    temp.as_file().sync_all()?;
    temp.persist(path).map_err(|e| e.error)?;
    // The rename itself is made durable by syncing the folder, where the system allows it.
    #[cfg(unix)]
    if let Ok(folder) = File::open(dir) {
        let _ = folder.sync_all();
    }
    Ok(())
}

/// [`read_limited`] over any reader: at most `limit + 1` bytes are read.
pub fn read_limited_from(reader: impl Read, limit: usize) -> Result<Vec<u8>, ReadError> {
    let mut bytes = Vec::new();
    let bound = u64::try_from(limit).unwrap_or(u64::MAX).saturating_add(1);
    reader.take(bound).read_to_end(&mut bytes).map_err(ReadError::Io)?;
    if bytes.len() > limit {
        return Err(ReadError::TooLarge { limit });
    }
    Ok(bytes)
}

/// Text without a leading UTF-8 byte order mark, which some editors (on Windows) write at the start of a
/// file; it is invisible and means nothing.
pub fn strip_bom(text: &str) -> &str {
    text.strip_prefix('\u{FEFF}').unwrap_or(text)
}

/// A size in words: `300 bytes`, `512 KiB`, `4.9 MiB`.
pub fn size(bytes: usize) -> String {
    match bytes {
        b if b < 1024 => format!("{b} bytes"),
        b if b < 1024 * 1024 => format!("{} KiB", b / 1024),
        b => format!("{:.1} MiB", b as f64 / (1024.0 * 1024.0)),
    }
}

/// An I/O error as a short phrase: "no such file or directory" (without "(os error 2)").
pub fn io_message(e: &std::io::Error) -> String {
    let text = e.to_string();
    let text = match text.find(" (os error") {
        Some(i) => &text[..i],
        None => &text,
    };
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_lowercase().chain(chars).collect(),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_endless_reader_is_refused_after_the_limit() {
        let err = read_limited_from(std::io::repeat(0), 1000).unwrap_err();
        assert!(matches!(err, ReadError::TooLarge { limit: 1000 }), "{err:?}");
        assert_eq!(err.to_string(), "larger than the limit of 1000 bytes");
    }

    #[test]
    fn a_file_at_the_limit_is_read_whole() {
        assert_eq!(read_limited_from(&[7u8; 10][..], 10).unwrap().len(), 10);
        assert!(read_limited_from(&[7u8; 11][..], 10).is_err());
    }

    #[test]
    fn a_failed_write_keeps_the_old_file_and_leaves_nothing_behind() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("save.json");
        std::fs::write(&path, "old").unwrap();
        let err = write_atomic_with(&path, |file| {
            file.write_all(b"half of the new")?;
            Err(std::io::Error::new(std::io::ErrorKind::StorageFull, "no space left on device"))
        })
        .unwrap_err();
        assert_eq!(err.kind(), std::io::ErrorKind::StorageFull);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "old");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1, "the new file is removed");
        write_atomic(&path, b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_or_a_folder_is_refused_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("pipe");
        assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
        let err = read_limited(&fifo, 10).unwrap_err();
        assert_eq!(err.to_string(), "it is a FIFO, not a regular file");
        assert_eq!(read_limited(dir.path(), 10).unwrap_err().to_string(), "it is a folder, not a regular file");
        assert_eq!(
            read_limited(Path::new("/dev/zero"), 10).unwrap_err().to_string(),
            "it is a device, not a regular file"
        );
    }

    #[test]
    fn a_bom_is_stripped_once() {
        assert_eq!(strip_bom("\u{FEFF}game"), "game");
        assert_eq!(strip_bom("game"), "game");
    }
}
