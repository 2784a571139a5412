//! Reading the files a user names (rule files, saved games) with a bound on their size.
//!
//! A path may name something endless (`/dev/zero`, a pipe) or huge; reading it whole before looking at its
//! size would exhaust memory. [`read_limited`] reads at most one byte past the limit and refuses the file
//! there, so the memory used is bounded by the limit whatever the path names.

use std::fmt;
use std::io::Read;
use std::path::Path;

/// Why [`read_limited`] gave no bytes.
#[derive(Debug)]
pub enum ReadError {
    /// The file could not be opened or read.
    Io(std::io::Error),
    /// The file holds more than `limit` bytes (only `limit + 1` of them were read).
    TooLarge { limit: usize },
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Io(e) => f.write_str(&io_message(e)),
            ReadError::TooLarge { limit } => write!(f, "larger than the limit of {}", size(*limit)),
        }
    }
}

impl std::error::Error for ReadError {}

/// Reads the file at `path` whole if it holds at most `limit` bytes; refuses it after reading `limit + 1`
/// bytes otherwise. Use it for every file a user names, with the limit of what the file should be.
pub fn read_limited(path: &Path, limit: usize) -> Result<Vec<u8>, ReadError> {
    let file = std::fs::File::open(path).map_err(ReadError::Io)?;
    read_limited_from(file, limit)
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
    fn a_bom_is_stripped_once() {
        assert_eq!(strip_bom("\u{FEFF}game"), "game");
        assert_eq!(strip_bom("game"), "game");
    }
}
