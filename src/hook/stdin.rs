//! Bounded stdin reader: returns the first complete JSON object, never waits for EOF
//! past a deadline (Claude Code has left stdin open) and never holds more than a cap.

use std::time::{Duration, Instant};

use crate::json::skip::{self, ContainerEnd};
use crate::platform::stdin::{Progress, TimedReader};

/// Largest payload baton reads; a Write of a huge file can exceed it, and is then ignored.
pub const MAX_PAYLOAD_BYTES: usize = 16 * 1024 * 1024;

/// Why no payload could be taken from stdin.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReadFailure {
    /// No complete JSON object before the deadline.
    #[error("no complete JSON object came before the deadline")]
    TimedOut,
    /// More than [`MAX_PAYLOAD_BYTES`] before the object closed.
    #[error("more than {} MiB came before the object closed", MAX_PAYLOAD_BYTES >> 20)]
    TooLarge,
    /// EOF before a complete object (empty input, garbage, a truncated object).
    #[error("the input ended before a complete JSON object")]
    Incomplete,
    /// The input is not a JSON object (an array, a number, text).
    #[error("the input is not a JSON object")]
    NotAnObject,
}

/// Reads stdin until the first top-level JSON object is complete, EOF, the cap or the deadline.
/// Returns the bytes of that object (leading whitespace skipped).
pub fn read_payload(timeout: Duration) -> Result<Vec<u8>, ReadFailure> {
    read_object(&mut TimedReader::stdin(), timeout, MAX_PAYLOAD_BYTES)
}

/// A hook's payload: [`read_payload`], except that an object larger than the cap gives its
/// members up to the cap (the first ones: the event, the session, the agent), closed into an
/// object, with `true`: a SubagentStop whose final message is huge still ends its run.
pub fn read_hook_payload(timeout: Duration) -> Result<(Vec<u8>, bool), ReadFailure> {
    match read_prefix(&mut TimedReader::stdin(), timeout, MAX_PAYLOAD_BYTES) {
        Ok(bytes) => Ok((bytes, false)),
        Err((ReadFailure::TooLarge, start)) => Ok((complete_members(&start), true)),
        Err((why, _)) => Err(why),
    }
}

/// The reader behind [`read_payload`], on any source.
pub fn read_object(source: &mut TimedReader, timeout: Duration, cap: usize) -> Result<Vec<u8>, ReadFailure> {
    read_prefix(source, timeout, cap).map_err(|(why, _)| why)
}

/// [`read_object`]; a failure comes with the input from the object's first byte (all of it
/// for an object past the cap).
fn read_prefix(source: &mut TimedReader, timeout: Duration, cap: usize) -> Result<Vec<u8>, (ReadFailure, Vec<u8>)> {
    let deadline = Instant::now() + timeout;
    let mut buf: Vec<u8> = Vec::new();
    let mut scanner = ObjectScanner::default();
    let failed = |why, mut buf: Vec<u8>, scanner: &ObjectScanner| {
        buf.drain(..scanner.object.as_ref().map_or(buf.len(), |(begin, _)| *begin));
        Err((why, buf))
    };
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return failed(ReadFailure::TimedOut, buf, &scanner);
        }
        match source.read_some(&mut buf, left) {
            Ok(Progress::Read(0)) => continue,
            Ok(Progress::Read(_)) => {}
            Ok(Progress::TimedOut) => return failed(ReadFailure::TimedOut, buf, &scanner),
            Ok(Progress::End) | Err(_) => return failed(ReadFailure::Incomplete, buf, &scanner),
        }
        match scanner.feed(&buf) {
            Scan::Complete { begin, end } => {
                buf.truncate(end);
                buf.drain(..begin);
                return Ok(buf);
            }
            Scan::NotAnObject => return failed(ReadFailure::NotAnObject, buf, &scanner),
            Scan::More if buf.len() > cap => return failed(ReadFailure::TooLarge, buf, &scanner),
            Scan::More => {}
        }
    }
}

/// The members of an object cut off after `start` (which begins at its `{`) that are whole,
/// as an object: `{"a":1,"b":"xy` gives `{"a":1}`. Syntax past what finding the ends needs is
/// left to the JSON parser that reads the result.
fn complete_members(start: &[u8]) -> Vec<u8> {
    let mut end = 1;
    let mut at = 1;
    loop {
        at = skip::skip_whitespace(start, at);
        if start.get(at) != Some(&b'"') {
            break;
        }
        let Some(key_end) = skip::string_end(start, at) else {
            break;
        };
        at = skip::skip_whitespace(start, key_end);
        if start.get(at) != Some(&b':') {
            break;
        }
        at = skip::skip_whitespace(start, at + 1);
        // A value that reaches the end of the input may be cut short (a number, a literal).
        match skip::value_end(start, at) {
            Some(value_end) if value_end < start.len() => end = value_end,
            _ => break,
        }
        at = skip::skip_whitespace(start, end);
        if start.get(at) != Some(&b',') {
            break;
        }
        at += 1;
    }
    let mut object = start[..end.min(start.len())].to_vec();
    object.push(b'}');
    object
}

enum Scan {
    More,
    /// The object spans `begin..end` of the input.
    Complete {
        begin: usize,
        end: usize,
    },
    NotAnObject,
}

/// Finds where the first object closes, in one linear pass over the input however it
/// arrives (no repeated parse attempts): [`skip`]'s search, after leading whitespace.
#[derive(Default)]
struct ObjectScanner {
    /// Input looked at before the object began.
    scanned: usize,
    /// The object's opening brace, once seen, and the search for its close.
    object: Option<(usize, ContainerEnd)>,
}

impl ObjectScanner {
    /// Continues over the input so far (what was given before, unchanged, and more).
    fn feed(&mut self, input: &[u8]) -> Scan {
        loop {
            if let Some((begin, search)) = &mut self.object {
                return search
                    .find(input)
                    .map_or(Scan::More, |end| Scan::Complete { begin: *begin, end });
            }
            let Some(&b) = input.get(self.scanned) else {
                return Scan::More;
            };
            match b {
                b'{' => self.object = Some((self.scanned, ContainerEnd::new(self.scanned))),
                // A UTF-8 byte order mark some tools prepend.
                0xEF | 0xBB | 0xBF if self.scanned < 3 => {}
                _ if skip::is_whitespace(b) => {}
                _ => return Scan::NotAnObject,
            }
            self.scanned += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Seek, Write};

    fn read_bytes(input: &[u8]) -> Result<Vec<u8>, ReadFailure> {
        let mut file = tempfile::tempfile().unwrap();
        file.write_all(input).unwrap();
        file.rewind().unwrap();
        read_object(&mut TimedReader::from_file(file), Duration::from_secs(1), 1024)
    }

    #[test]
    fn returns_the_first_object_and_ignores_what_follows() {
        let got = read_bytes(b"  {\"a\":\"}{\\\"\",\"b\":[1,{}]} trailing").unwrap();
        assert_eq!(got, b"{\"a\":\"}{\\\"\",\"b\":[1,{}]}");
    }

    #[test]
    fn rejects_non_objects_and_truncation() {
        assert_eq!(read_bytes(b"[1,2]"), Err(ReadFailure::NotAnObject));
        assert_eq!(read_bytes(b"garbage"), Err(ReadFailure::NotAnObject));
        assert_eq!(read_bytes(b""), Err(ReadFailure::Incomplete));
        assert_eq!(read_bytes(b"{\"a\":1"), Err(ReadFailure::Incomplete));
    }

    #[test]
    fn caps_the_size() {
        let mut big = b"{\"a\":\"".to_vec();
        big.extend(std::iter::repeat_n(b'x', 200_000));
        assert_eq!(read_bytes(&big), Err(ReadFailure::TooLarge));
    }

    #[test]
    fn an_object_past_the_cap_keeps_its_whole_members() {
        let members = |text: &str| String::from_utf8(complete_members(text.as_bytes())).unwrap();
        assert_eq!(
            members(r#"{"a": 1, "b": {"c": [1, "}"]}, "m": "huge text cut sho"#),
            r#"{"a": 1, "b": {"c": [1, "}"]}}"#
        );
        assert_eq!(members(r#"{"a":"x","n":12"#), r#"{"a":"x"}"#, "a number that may go on");
        assert_eq!(members(r#"{"a":"x\"y","#), r#"{"a":"x\"y"}"#);
        assert_eq!(members(r#"{"a"#), "{}");
        assert_eq!(members("{"), "{}");
        for text in [r#"{"a":1,"b":2,"c":"x"#, r#"{ "a" : [1,{"b":"]"}] , "#] {
            let object: serde_json::Value = serde_json::from_slice(&complete_members(text.as_bytes())).unwrap();
            assert!(object.is_object(), "{text}");
        }
    }

    #[test]
    fn gives_up_at_the_deadline_when_stdin_stays_open() {
        let (reader, mut writer) = std::io::pipe().unwrap();
        writer.write_all(b"{\"a\":").unwrap();
        let started = Instant::now();
        let got = read_object(&mut TimedReader::from_pipe(reader), Duration::from_millis(100), 1024);
        assert_eq!(got, Err(ReadFailure::TimedOut));
        assert!(started.elapsed() < Duration::from_secs(5));
    }
}
