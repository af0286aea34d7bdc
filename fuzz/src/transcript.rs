//! Transcripts made from an input, line for line: a line that is JSON is written as Claude
//! Code writes JSON (compact, each key once, no needless escapes, valid UTF-8), `{"pad":N}`
//! becomes a user line of N bytes (a large tool result, which pushes the lines before it
//! past a reader's first window), and any other line stays as it is (junk, a torn write).

use serde_json::Value;

/// Largest line a pad makes.
pub const MAX_PAD: usize = 1 << 20;
/// Largest transcript built: pads past it shrink. Well inside the tail reader's 8 MiB.
pub const MAX_BYTES: usize = 6 << 20;

/// How input lines become transcript lines.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Lines {
    /// JSON lines re-serialised as the client writes them; every line valid UTF-8 (a JSON
    /// string the client writes is, and serde skips a field without checking it).
    AsTheClientWrites,
    /// Lines kept byte for byte (only pads expanded).
    Raw,
}

/// The transcript for `input`: its lines transformed, joined by `\n`, with a final newline
/// exactly when the input has one.
pub fn build(input: &[u8], lines: Lines) -> Vec<u8> {
    let mut out = Vec::with_capacity(input.len());
    for (i, line) in input.split(|&b| b == b'\n').enumerate() {
        if i > 0 {
            out.push(b'\n');
        }
        let valid = String::from_utf8_lossy(line);
        let line = match lines {
            Lines::AsTheClientWrites => valid.as_bytes(),
            Lines::Raw => line,
        };
        let parsed: Option<Value> = serde_json::from_slice(line).ok();
        if let Some(n) = parsed.as_ref().and_then(pad_length) {
            let room = MAX_BYTES.saturating_sub(out.len() + input.len());
            out.extend_from_slice(&pad_line(n.min(room)));
            continue;
        }
        match (&parsed, lines) {
            (Some(value), Lines::AsTheClientWrites) => {
                out.extend_from_slice(&serde_json::to_vec(value).expect("a value serialises"))
            }
            _ => out.extend_from_slice(line),
        }
    }
    out
}

/// `N` of a `{"pad":N}` line.
fn pad_length(value: &Value) -> Option<usize> {
    let map = value.as_object()?;
    if map.len() != 1 {
        return None;
    }
    let n = map.get("pad")?.as_u64()?;
    Some(usize::try_from(n).unwrap_or(usize::MAX).min(MAX_PAD))
}

/// A user line of about `n` bytes that no reader takes for usage.
pub fn pad_line(n: usize) -> Vec<u8> {
    let head = br#"{"type":"user","message":{"role":"user","content":""#;
    let tail = br#""}}"#;
    let mut line = Vec::with_capacity(head.len() + n + tail.len());
    line.extend_from_slice(head);
    line.resize(head.len() + n, b'x');
    line.extend_from_slice(tail);
    line
}
