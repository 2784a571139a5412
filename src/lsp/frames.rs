//! The protocol's frames on a byte stream (`Content-Length: N`, a blank line, then N bytes of JSON), read
//! with bounds and without trusting the client.
//!
//! `lsp-server`'s own reader allocates the declared length before reading the body (a length of 10^11
//! aborted the process, 2^63 panicked) and stops at the first body that is not JSON, quoting all of it.
//! Here a header block holds at most [`MAX_HEADER_BYTES`], a body at most [`MAX_MESSAGE_BYTES`] (a larger
//! one is skipped as it arrives, never held), and a frame that is no message becomes a [`Frame::Invalid`]:
//! the error the server answers, quoting at most a short prefix, before it reads on.

use std::io::{self, BufRead, Read};

use lsp_server::{ErrorCode, Message};
use serde_json::Value;

use crate::io::size;
use crate::syntax::MAX_SOURCE_BYTES;

/// The largest body read: a rule file at its limit as a JSON string, where each newline, quote and
/// backslash takes two bytes, with room for the rest of the message.
pub const MAX_MESSAGE_BYTES: usize = 2 * MAX_SOURCE_BYTES + 64 * 1024;

/// The most bytes of one frame's headers (an editor sends one or two short lines).
pub const MAX_HEADER_BYTES: usize = 8 * 1024;

/// How many characters of a bad body an error quotes.
const QUOTED_CHARS: usize = 40;

/// What one frame held.
#[derive(Debug)]
pub enum Frame {
    Message(Message),
    /// A frame that is no message: the error to answer, for the request of `id` where it could be read.
    Invalid {
        id: Option<Value>,
        code: ErrorCode,
        message: String,
    },
}

/// Reads frames from `input`, one at a time.
pub struct Reader<R> {
    input: R,
    /// The bytes of a body too large to read, still to be passed over before the next frame.
    skip: u64,
}

impl<R: BufRead> Reader<R> {
    pub fn new(input: R) -> Reader<R> {
        Reader { input, skip: 0 }
    }

    /// The next frame, or `None` at the end of the input.
    pub fn next_frame(&mut self) -> io::Result<Option<Frame>> {
        if self.skip > 0 {
            let skip = std::mem::take(&mut self.skip);
            let skipped = io::copy(&mut (&mut self.input).take(skip), &mut io::sink())?;
            if skipped < skip {
                return Ok(None);
            }
        }
        let Some(headers) = self.headers()? else { return Ok(None) };
        let length = match headers {
            Ok(length) => length,
            Err(message) => return Ok(Some(Frame::Invalid { id: None, code: ErrorCode::ParseError, message })),
        };
        if length > MAX_MESSAGE_BYTES as u64 {
            // Answered now, and passed over as it arrives: a client that declared a length it never sends
            // costs a wait, not memory.
            self.skip = length;
            let message = format!(
                "a message of {} is more than the {} the server reads (a rule file may have {})",
                size_u64(length),
                size(MAX_MESSAGE_BYTES),
                size(MAX_SOURCE_BYTES)
            );
            return Ok(Some(Frame::Invalid { id: None, code: ErrorCode::InvalidRequest, message }));
        }
        // `length` is at most MAX_MESSAGE_BYTES, so it fits a usize.
        let mut body = vec![0; length as usize];
        match self.input.read_exact(&mut body) {
            Ok(()) => Ok(Some(decode(&body))),
            Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// The declared length of the next frame's body, or why the headers are unusable; `None` at the end of
    /// the input.
    fn headers(&mut self) -> io::Result<Option<Result<u64, String>>> {
        let mut length = None;
        let mut problem = None;
        let mut total = 0usize;
        let mut line = Vec::new();
        loop {
            line.clear();
            let Some(read) = read_line(&mut self.input, &mut line, MAX_HEADER_BYTES)? else {
                return Ok(None);
            };
            total = total.saturating_add(read);
            let text = String::from_utf8_lossy(&line);
            let text = text.trim_end_matches(['\r', '\n']);
            if text.is_empty() {
                if total == read && length.is_none() && problem.is_none() {
                    // Blank lines between frames are passed over.
                    continue;
                }
                break;
            }
            if problem.is_some() {
                continue;
            }
            if total > MAX_HEADER_BYTES {
                problem = Some(format!("the headers of a message are longer than {}", size(MAX_HEADER_BYTES)));
                continue;
            }
            match text.split_once(':') {
                Some((name, value)) if name.trim().eq_ignore_ascii_case("Content-Length") => {
                    match value.trim().parse::<u64>() {
                        Ok(n) => length = Some(n),
                        Err(_) => problem = Some(format!("`Content-Length: {}` is not a length", quote(value.trim()))),
                    }
                }
                Some(_) => {}
                None => problem = Some(format!("`{}` is not a header (`Name: value`)", quote(text))),
            }
        }
        Ok(Some(match (problem, length) {
            (Some(problem), _) => Err(problem),
            (None, Some(length)) => Ok(length),
            (None, None) => Err("a message without a `Content-Length` header".into()),
        }))
    }
}

/// A body as a message, or the error that answers it.
fn decode(body: &[u8]) -> Frame {
    let value: Value = match serde_json::from_slice(body) {
        Ok(value) => value,
        Err(e) => {
            let begins = String::from_utf8_lossy(&body[..body.len().min(4 * QUOTED_CHARS)]).into_owned();
            let message = format!("the message is not JSON ({e}); it begins `{}`", quote(&begins));
            return Frame::Invalid { id: None, code: ErrorCode::ParseError, message };
        }
    };
    let id = value.get("id").filter(|id| id.is_number() || id.is_string()).cloned();
    match serde_json::from_value::<Message>(value) {
        Ok(message) => Frame::Message(message),
        Err(_) => Frame::Invalid {
            id,
            code: ErrorCode::InvalidRequest,
            message: "the JSON is not a request, a response or a notification of JSON-RPC 2.0".into(),
        },
    }
}

/// Reads one line (up to and with its `\n`) into `line`, keeping at most `keep` bytes of it and passing
/// over the rest; the number of bytes read, or `None` at the end of the input.
fn read_line(input: &mut impl BufRead, line: &mut Vec<u8>, keep: usize) -> io::Result<Option<usize>> {
    let mut read = 0usize;
    loop {
        let buffer = match input.fill_buf() {
            Ok(buffer) => buffer,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buffer.is_empty() {
            return Ok((read > 0).then_some(read));
        }
        let (used, done) = match buffer.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (buffer.len(), false),
        };
        let room = keep.saturating_sub(line.len());
        line.extend_from_slice(&buffer[..used.min(room)]);
        input.consume(used);
        read = read.saturating_add(used);
        if done {
            return Ok(Some(read));
        }
    }
}

/// At most a short prefix of `text`, on one line.
fn quote(text: &str) -> String {
    let mut quoted: String = text.chars().take(QUOTED_CHARS).flat_map(char::escape_debug).collect();
    if text.chars().nth(QUOTED_CHARS).is_some() {
        quoted.push_str("...");
    }
    quoted
}

fn size_u64(bytes: u64) -> String {
    match usize::try_from(bytes) {
        Ok(b) if b < 1024 * 1024 * 1024 => size(b),
        _ => format!("{bytes} bytes"),
    }
}

/// One message framed for the output: its headers and its JSON.
pub fn frame(json: &[u8]) -> Vec<u8> {
    let mut bytes = format!("Content-Length: {}\r\n\r\n", json.len()).into_bytes();
    bytes.extend_from_slice(json);
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(input: &[u8]) -> Vec<Frame> {
        let mut reader = Reader::new(input);
        std::iter::from_fn(|| reader.next_frame().unwrap()).collect()
    }

    fn message(json: &str) -> Vec<u8> {
        frame(json.as_bytes())
    }

    const EXIT: &str = r#"{"jsonrpc":"2.0","method":"exit"}"#;

    #[test]
    fn a_huge_declared_length_is_refused_without_allocating_it() {
        for length in ["100000000000", "9223372036854775808", "4000000000"] {
            let mut input = format!("Content-Length: {length}\r\n\r\n").into_bytes();
            input.extend(message(EXIT));
            let got = frames(&input);
            assert_eq!(got.len(), 1, "{got:?}");
            let Frame::Invalid { code, message, .. } = &got[0] else { panic!("{got:?}") };
            assert_eq!(*code as i32, ErrorCode::InvalidRequest as i32);
            assert!(message.contains("more than the 1.1 MiB the server reads"), "{message}");
        }
    }

    #[test]
    fn a_body_that_is_not_json_is_answered_with_a_short_quote_and_reading_goes_on() {
        let garbage = "x".repeat(100_000);
        let mut input = message(&garbage);
        input.extend(message(EXIT));
        let got = frames(&input);
        let Frame::Invalid { code, message, id: None } = &got[0] else { panic!("{got:?}") };
        assert_eq!(*code as i32, ErrorCode::ParseError as i32);
        assert!(message.len() < 200, "{message}");
        assert!(matches!(&got[1], Frame::Message(Message::Notification(n)) if n.method == "exit"), "{got:?}");
    }

    #[test]
    fn json_that_is_no_message_is_answered_with_its_id() {
        let got = frames(&message(r#"{"id": 7, "jsonrpc": "2.0", "params": []}"#));
        let Frame::Invalid { code, id, .. } = &got[0] else { panic!("{got:?}") };
        assert_eq!(*code as i32, ErrorCode::InvalidRequest as i32);
        assert_eq!(id, &Some(Value::from(7)));
    }

    #[test]
    fn bad_headers_cost_one_error_and_reading_goes_on() {
        let mut input = b"Content-Length: lots\r\n\r\n".to_vec();
        input.extend(b"no colon here\r\n\r\n");
        input.extend(b"Content-Type: x\r\n\r\n");
        input.extend(std::iter::repeat_n(b'y', 100_000));
        input.extend(b"\r\n\r\n");
        input.extend(message(EXIT));
        let got = frames(&input);
        assert_eq!(got.len(), 5, "{got:?}");
        for frame in &got[..4] {
            let Frame::Invalid { message, .. } = frame else { panic!("{got:?}") };
            assert!(message.len() < 200, "{message}");
        }
        assert!(matches!(&got[4], Frame::Message(_)), "{got:?}");
    }
}
