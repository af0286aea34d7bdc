//! Reads the current context size from the end of a transcript, without reading the whole
//! file: the last assistant usage of the context being measured, or `postTokens` of a newer
//! compact boundary.

use std::io;
use std::ops::ControlFlow;
use std::path::Path;

use serde::Deserialize;

use crate::api_usage::{ApiUsage, readable_usage};
use crate::context::window::{self, ContextUsage, UsageSource};
use crate::json::lenient::{lenient_flag, lenient_object, lenient_text};

mod call;
mod wait;
pub use call::{CallTail, figure_of_call, tail_for_call};
pub use wait::{WRITE_IDLE_LIMIT, WRITE_LAG_LIMIT, is_tool_use_id, wait_for_file, wait_for_tool_use};

/// The first look: enough for the last turns of almost every session.
const FIRST_WINDOW: u64 = 64 * 1024;
/// The most baton reads from one transcript's tail before giving up.
pub const MAX_TAIL_BYTES: u64 = 8 * 1024 * 1024;
/// The most the forecast reads of a tail for its history (every statusline render reads it):
/// the last requests usually fit in far less; when they do not, fewer requests are used.
pub const HISTORY_TAIL_BYTES: u64 = 1024 * 1024;

/// The context size found at the end of a transcript.
#[derive(Debug, Clone, PartialEq)]
pub struct TailUsage {
    pub used_tokens: u64,
    /// `message.model` of the assistant line, when the figure came from one.
    pub model: Option<String>,
    /// The figure is `postTokens` of a compact boundary with no reply since.
    pub after_compaction: bool,
}

impl TailUsage {
    /// The usage this tail states, in the window Claude Code reported when known, else the
    /// one of the model (the known model id first: only it carries a `[1m]` suffix).
    pub fn usage(&self, known_window: Option<u64>, known_model: Option<&str>, configured: Option<u64>) -> ContextUsage {
        let model = known_model.or(self.model.as_deref());
        let window = window::window_size(known_window, model, configured, Some(self.used_tokens));
        let source = if self.after_compaction {
            UsageSource::CompactBoundary
        } else {
            UsageSource::Transcript
        };
        ContextUsage {
            used_tokens: self.used_tokens,
            window,
            source,
        }
    }
}

/// Whose context a transcript's replies describe.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Chain {
    /// A session's main transcript: its `isSidechain: true` replies (older clients wrote
    /// subagents' replies there) belong to another context and are skipped.
    Main,
    /// A subagent's own transcript (`<session>/subagents/agent-<id>.jsonl`): every reply in it
    /// is marked `isSidechain: true` and every one is the subagent's context.
    Subagent,
}

/// Scans the transcript's tail, newest line first, for the current context size (never the
/// whole file). `None` when the tail holds no usable line (a fresh session, only garbage).
pub fn last_context_usage(path: &Path, chain: Chain) -> io::Result<Option<TailUsage>> {
    scan_figure(path, chain, None).map(|(found, _)| found)
}

/// The newest figure of `chain` in the tail, and whether `mention` occurs in the lines from
/// the end back to it (the figure's own line included).
fn scan_figure(
    path: &Path,
    chain: Chain,
    mention: Option<&memchr::memmem::Finder>,
) -> io::Result<(Option<TailUsage>, bool)> {
    let mut found = None;
    let mut mentioned = false;
    scan_tail(path, MAX_TAIL_BYTES, |line| {
        mentioned = mentioned || mention.is_some_and(|finder| finder.find(line).is_some());
        found = match figure_in_line(line, chain) {
            Some(LineFigure::Boundary {
                post_tokens: Some(post),
            }) => Some(TailUsage {
                used_tokens: post,
                model: None,
                after_compaction: true,
            }),
            Some(LineFigure::Reply { tokens, model, .. }) => Some(TailUsage {
                used_tokens: tokens,
                model,
                after_compaction: false,
            }),
            _ => None,
        };
        if found.is_some() {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    })?;
    Ok((found, mentioned))
}

/// Calls `visit` with each whole line of the transcript's last `max_bytes`, newest first,
/// until it breaks or the lines run out: the last 64 KiB first, then (behind large tool
/// results) twice as far back each time, reading only what the last look did not, up to
/// `max_bytes` (at most [`MAX_TAIL_BYTES`]). Never the whole file.
pub fn scan_tail(path: &Path, max_bytes: u64, mut visit: impl FnMut(&[u8]) -> ControlFlow<()>) -> io::Result<()> {
    let file = crate::fsx::open_regular(path)?;
    let size = file.metadata()?.len();
    let max_bytes = max_bytes.min(size);
    // Everything from `end` on has been visited; `end` is always the start of a line.
    let mut end = size;
    let mut window = FIRST_WINDOW;
    loop {
        let start = size - window.min(max_bytes);
        if start < end {
            let buf = read_range(&file, start, end - start)?;
            // The first segment is a partial line unless the window starts the file.
            let skip = match memchr::memchr(b'\n', &buf) {
                _ if start == 0 => 0,
                Some(i) => i + 1,
                None => buf.len(),
            };
            let lines = &buf[skip..];
            let mut line_end = lines.len();
            for newline in memchr::memrchr_iter(b'\n', lines).chain(std::iter::once(usize::MAX)) {
                let line_start = newline.wrapping_add(1);
                if visit(&lines[line_start..line_end]).is_break() {
                    return Ok(());
                }
                line_end = newline;
            }
            end = start + skip as u64;
        }
        if window >= max_bytes {
            return Ok(());
        }
        window = window.saturating_mul(2);
    }
}

/// `len` bytes of `file` from `start`, read into fresh memory without zeroing it first (a
/// zeroed buffer is touched twice, and on the statusline's path every page costs a fault).
fn read_range(mut file: &std::fs::File, start: u64, len: u64) -> io::Result<Vec<u8>> {
    use std::io::{Read, Seek, SeekFrom};
    file.seek(SeekFrom::Start(start))?;
    let mut buf = Vec::with_capacity(len as usize);
    file.take(len).read_to_end(&mut buf)?;
    if (buf.len() as u64) < len {
        return Err(io::Error::new(
            io::ErrorKind::UnexpectedEof,
            "the transcript shrank while read",
        ));
    }
    Ok(buf)
}

/// What a transcript line says about the context size, when it is a line that decides it.
#[derive(Debug, Clone, PartialEq)]
pub enum LineFigure {
    /// A compact boundary (`type: "system"`, `subtype: "compact_boundary"`): what came before
    /// is summarised; `postTokens` when the client wrote it.
    Boundary { post_tokens: Option<u64> },
    /// An assistant reply of the chain with usage: one API response (its content blocks may
    /// take several lines sharing `message.id`).
    Reply {
        tokens: u64,
        model: Option<String>,
        message_id: Option<String>,
    },
}

/// The figure a single transcript line establishes, if it is one that decides it: an
/// assistant reply of `chain` with usage, or a compact boundary (only a `type: "system"`
/// line is one; a reply that merely mentions `compact_boundary` is a reply).
pub fn figure_in_line(line: &[u8], chain: Chain) -> Option<LineFigure> {
    // Cheap filters first: most lines are tool results, attachments and request records.
    let maybe_reply = || NEEDLES.assistant.find(line).is_some() && NEEDLES.usage.find(line).is_some();
    if !maybe_reply() && NEEDLES.boundary.find(line).is_none() {
        return None;
    }
    let entry: TailLine = serde_json::from_slice(line).ok()?;
    match entry.kind.as_deref()? {
        "system" if entry.subtype.as_deref() == Some("compact_boundary") => Some(LineFigure::Boundary {
            post_tokens: entry
                .compact_metadata
                .and_then(|m| m.post_tokens)
                .map(|post| post.round() as u64),
        }),
        "assistant" => {
            if (chain == Chain::Main && entry.is_sidechain == Some(true)) || entry.is_api_error_message == Some(true) {
                return None;
            }
            let message = entry.message?;
            if message.model.as_deref() == Some("<synthetic>") {
                return None;
            }
            Some(LineFigure::Reply {
                tokens: message.usage?.context_tokens()?,
                model: message.model,
                message_id: message.id,
            })
        }
        _ => None,
    }
}

/// The words a deciding line holds, searched for with finders built once.
struct Needles {
    assistant: memchr::memmem::Finder<'static>,
    usage: memchr::memmem::Finder<'static>,
    boundary: memchr::memmem::Finder<'static>,
}

static NEEDLES: std::sync::LazyLock<Needles> = std::sync::LazyLock::new(|| Needles {
    assistant: memchr::memmem::Finder::new(b"\"assistant\""),
    usage: memchr::memmem::Finder::new(b"\"usage\""),
    boundary: memchr::memmem::Finder::new(b"\"compact_boundary\""),
});

/// The fields of a transcript line that decide the context size: an assistant reply's or
/// a compact boundary's.
#[derive(Deserialize)]
struct TailLine {
    #[serde(rename = "type", default, deserialize_with = "lenient_text")]
    kind: Option<String>,
    #[serde(default, deserialize_with = "lenient_text")]
    subtype: Option<String>,
    #[serde(rename = "isSidechain", default, deserialize_with = "lenient_flag")]
    is_sidechain: Option<bool>,
    #[serde(rename = "isApiErrorMessage", default, deserialize_with = "lenient_flag")]
    is_api_error_message: Option<bool>,
    #[serde(default, deserialize_with = "lenient_object")]
    message: Option<AssistantMessage>,
    #[serde(rename = "compactMetadata", default, deserialize_with = "lenient_object")]
    compact_metadata: Option<CompactMetadata>,
}

#[derive(Deserialize)]
struct AssistantMessage {
    #[serde(default, deserialize_with = "lenient_text")]
    id: Option<String>,
    #[serde(default, deserialize_with = "lenient_text")]
    model: Option<String>,
    #[serde(default, deserialize_with = "readable_usage")]
    usage: Option<ApiUsage>,
}

#[derive(Deserialize)]
struct CompactMetadata {
    #[serde(
        rename = "postTokens",
        default,
        deserialize_with = "crate::json::lenient::lenient_number"
    )]
    post_tokens: Option<f64>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn assistant(tokens: u64, extra: &str) -> String {
        format!(
            r#"{{"type":"assistant","isSidechain":false,{extra}"message":{{"id":"m","model":"claude-sonnet-4-5","usage":{{"input_tokens":{tokens},"cache_creation_input_tokens":10,"cache_read_input_tokens":5,"output_tokens":7}}}}}}"#
        )
    }

    fn scan(lines: &[String]) -> Option<TailUsage> {
        let mut f = tempfile::NamedTempFile::new().unwrap();
        for l in lines {
            writeln!(f, "{l}").unwrap();
        }
        last_context_usage(f.path(), Chain::Main).unwrap()
    }

    #[test]
    fn takes_the_last_main_chain_assistant_line() {
        let lines = vec![
            assistant(1000, ""),
            assistant(2000, ""),
            assistant(9000, "").replace(r#""isSidechain":false"#, r#""isSidechain":true"#),
            r#"{"type":"user","message":{"role":"user","content":"assistant usage"}}"#.to_string(),
        ];
        let got = scan(&lines).unwrap();
        assert_eq!(got.used_tokens, 2015);
        assert_eq!(got.model.as_deref(), Some("claude-sonnet-4-5"));
    }

    #[test]
    fn skips_api_errors_and_synthetic_messages() {
        let lines = vec![
            assistant(3000, ""),
            assistant(1, r#""isApiErrorMessage":true,"#),
            assistant(1, "").replace("claude-sonnet-4-5", "<synthetic>"),
        ];
        assert_eq!(scan(&lines).unwrap().used_tokens, 3015);
    }

    #[test]
    fn a_newer_compact_boundary_wins() {
        let lines = vec![
            assistant(160_000, ""),
            r#"{"type":"system","subtype":"compact_boundary","compactMetadata":{"trigger":"auto","preTokens":166909,"postTokens":6060}}"#.to_string(),
            r#"{"type":"user","isCompactSummary":true,"message":{"role":"user","content":"summary"}}"#.to_string(),
        ];
        let got = scan(&lines).unwrap();
        assert_eq!((got.used_tokens, got.after_compaction), (6060, true));
        let mut after = lines.clone();
        after.push(assistant(7000, ""));
        assert_eq!(scan(&after).unwrap().used_tokens, 7015);
    }

    #[test]
    fn a_reply_mentioning_compact_boundary_is_a_reply() {
        let grep = r#""content":[{"type":"tool_use","name":"Grep","input":{"pattern":"compact_boundary"}}],"#;
        let lines = vec![
            assistant(20_000, ""),
            assistant(150_000, "").replace(r#""message":{"#, &format!(r#""message":{{{grep}"#)),
        ];
        assert!(lines[1].contains(r#""compact_boundary""#), "{}", lines[1]);
        assert_eq!(scan(&lines).unwrap().used_tokens, 150_015);
        // A system line of another subtype that mentions it is no boundary either.
        let mut noted = lines.clone();
        noted.push(r#"{"type":"system","subtype":"stop_hook_summary","content":"compact_boundary"}"#.into());
        assert_eq!(scan(&noted).unwrap().used_tokens, 150_015);
    }

    #[test]
    fn a_subagents_own_transcript_counts_its_sidechain_replies() {
        let sidechain = |tokens| assistant(tokens, "").replace(r#""isSidechain":false"#, r#""isSidechain":true"#);
        let mut f = tempfile::NamedTempFile::new().unwrap();
        for l in [
            sidechain(140_000),
            r#"{"type":"api-request","agentId":"a1","usage":"assistant"}"#.into(),
        ] {
            writeln!(f, "{l}").unwrap();
        }
        let own = last_context_usage(f.path(), Chain::Subagent).unwrap().unwrap();
        assert_eq!(own.used_tokens, 140_015);
        assert_eq!(last_context_usage(f.path(), Chain::Main).unwrap(), None);
    }

    #[test]
    fn finds_a_line_behind_a_tail_larger_than_one_chunk() {
        let big = format!(
            r#"{{"type":"user","message":{{"content":"{}"}}}}"#,
            "x".repeat(FIRST_WINDOW as usize + 17)
        );
        let lines = vec![assistant(42_000, ""), big.clone(), big];
        assert_eq!(scan(&lines).unwrap().used_tokens, 42_015);
    }

    #[test]
    fn no_usage_and_garbage_give_none() {
        assert_eq!(scan(&["not json".into(), "\u{0}\u{1}".into()]), None);
        assert_eq!(scan(&[]), None);
        // A truncated last line is ignored; the one before counts.
        let mut lines = vec![assistant(5000, "")];
        lines.push(assistant(6000, "")[..40].to_string());
        assert_eq!(scan(&lines).unwrap().used_tokens, 5015);
    }

    #[test]
    fn reads_the_real_clients_transcript() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/claude-code-2.1.197/transcript-headless-3-tools.jsonl");
        if let Ok(Some(got)) = last_context_usage(&path, Chain::Main) {
            assert_eq!(got.used_tokens, 150_000);
        } else {
            panic!("fixture transcript missing or unreadable: {}", path.display());
        }
    }
}
