//! Reading the files a user names (rule files, saved games) with a bound on their size, and writing them
//! so that a failure never loses the file that was there.
//!
//! A path may name something endless (`/dev/zero`, a pipe) or huge; reading it whole before looking at its
//! size would exhaust memory, and opening a FIFO waits for a writer that may never come. [`read_limited`]
//! reads only regular files ([`open_regular`]), at most one byte past the limit, and refuses the file
//! there, so the memory used is bounded by the limit whatever the path names.
//!
//! [`write_atomic`] writes a new file beside the old one, syncs it, then renames it over the old one: a
//! full disk, an I/O error or a kill midway leaves the old file as it was. A kill leaves the new file
//! behind too (hidden, named after the old one); the next write or load of the same file removes such
//! leftovers ([`remove_stale_temporaries`]), each writer holding a lock on its own so that a write under
//! way in another process is never taken for one.

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
    let (dir, prefix) = temporary_prefix(path);
    remove_stale_temporaries(path);
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(TEMPORARY_SUFFIX).rand_bytes(TEMPORARY_RANDOM_CHARS);
    // As a plain write would make it (the umask applies), not only for its owner as a temporary file is.
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
    let mut temp = locked_temporary(&builder, dir)?;
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

/// Removes the temporary files that writes of `path` by [`write_atomic`] left behind when they were killed
/// midway: hidden files in the same folder named `.NAME.XXXXXX.tmp`, that no writer holds (on Unix, no
/// process holds the lock that every writer takes on its own file; elsewhere, untouched for ten minutes).
/// Files of other names are never touched, and a failure to remove one is no error: the next write or
/// load tries again.
pub fn remove_stale_temporaries(path: &Path) {
    let (dir, prefix) = temporary_prefix(path);
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        let Some(random) = name.strip_prefix(prefix.as_str()).and_then(|rest| rest.strip_suffix(TEMPORARY_SUFFIX))
        else {
            continue;
        };
        if random.len() != TEMPORARY_RANDOM_CHARS || !random.bytes().all(|b| b.is_ascii_alphanumeric()) {
            continue;
        }
        let stale = entry.path();
        if is_abandoned(&stale) {
            let _ = std::fs::remove_file(&stale);
        }
    }
}

const TEMPORARY_SUFFIX: &str = ".tmp";
const TEMPORARY_RANDOM_CHARS: usize = 6;

/// The folder of `path` and the start of the names of its temporary files: a hidden name that no listing
/// of rule files or saves picks up while it is written.
fn temporary_prefix(path: &Path) -> (&Path, String) {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    (dir, format!(".{name}."))
}

/// A new temporary file in `dir`, locked for as long as it is open, so that [`remove_stale_temporaries`]
/// in another process leaves it alone. A cleaner could take the file between its creation and the lock;
/// the lock is therefore taken first and the name checked after: if it no longer names this file, another
/// one is made.
fn locked_temporary(builder: &tempfile::Builder, dir: &Path) -> std::io::Result<tempfile::NamedTempFile> {
    let mut tries = 0;
    loop {
        let temp = builder.tempfile_in(dir)?;
        if lock(temp.as_file()) && still_named(&temp) {
            return Ok(temp);
        }
        tries += 1;
        if tries == 3 {
            // Where locks are not to be had (some network file systems), the write goes on without one.
            return builder.tempfile_in(dir);
        }
    }
}

#[cfg(unix)]
fn lock(file: &File) -> bool {
    use std::os::unix::io::AsRawFd;
    // SAFETY: flock on a descriptor this function's caller owns; it touches no memory.
    unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) == 0 }
}

#[cfg(not(unix))]
fn lock(_file: &File) -> bool {
    true
}

#[cfg(unix)]
fn still_named(temp: &tempfile::NamedTempFile) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (temp.as_file().metadata(), std::fs::metadata(temp.path())) {
        (Ok(open), Ok(named)) => open.dev() == named.dev() && open.ino() == named.ino(),
        _ => false,
    }
}

#[cfg(not(unix))]
fn still_named(_temp: &tempfile::NamedTempFile) -> bool {
    true
}

/// Whether no writer holds the temporary file at `path`: on Unix its lock can be taken (a killed
/// writer's lock went with it); elsewhere it is ten minutes old.
#[cfg(unix)]
fn is_abandoned(path: &Path) -> bool {
    match OpenOptions::new().read(true).open(path) {
        Ok(file) => lock(&file),
        Err(_) => false,
    }
}

#[cfg(not(unix))]
fn is_abandoned(path: &Path) -> bool {
    let age = std::fs::metadata(path).and_then(|m| m.modified()).ok().and_then(|t| t.elapsed().ok());
    age.is_some_and(|age| age > std::time::Duration::from_secs(600))
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

    /// A write killed midway leaves its temporary file; the next write of the same file removes it, but
    /// neither a write under way (its file locked) nor files of other names.
    #[cfg(unix)]
    #[test]
    fn a_killed_write_leaves_nothing_for_good() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("game.json");
        let names =
            [".game.json.aB3dE9.tmp", ".game.json.Zz0000.tmp", ".game.json.notes.tmp", ".other.json.aB3dE9.tmp"];
        for name in names {
            std::fs::write(dir.path().join(name), "half a save").unwrap();
        }
        let under_way = File::open(dir.path().join(names[1])).unwrap();
        assert!(lock(&under_way));
        write_atomic(&path, b"new").unwrap();
        let mut left: Vec<String> =
            std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
        left.sort();
        assert_eq!(left, [".game.json.Zz0000.tmp", ".game.json.notes.tmp", ".other.json.aB3dE9.tmp", "game.json"]);
        // Once its writer is gone, a load (or the next write) removes it too.
        drop(under_way);
        remove_stale_temporaries(&path);
        assert!(!dir.path().join(names[1]).exists());
    }

    #[cfg(unix)]
    #[test]
    fn a_killed_writer_process_leaves_nothing_after_the_next_write() {
        // A real kill: a child holds a temporary file of the save, locked as a writer does, and dies.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("game.json");
        let temp = dir.path().join(".game.json.Kil1ed.tmp");
        let script = format!("exec 9>'{}'; flock 9; kill -9 $$", temp.display());
        let status = std::process::Command::new("sh").arg("-c").arg(script).status().unwrap();
        assert!(!status.success());
        assert!(temp.exists());
        write_atomic(&path, b"new").unwrap();
        assert!(!temp.exists(), "the killed writer's file is removed");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn a_bom_is_stripped_once() {
        assert_eq!(strip_bom("\u{FEFF}game"), "game");
        assert_eq!(strip_bom("game"), "game");
    }
}
