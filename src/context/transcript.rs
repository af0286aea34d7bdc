//! Reads the current context size from the end of a transcript, without reading the whole
//! file: the last assistant usage of the context being measured, or `postTokens` of a newer
//! compact boundary.

use std::io;
use std::path::Path;
use std::time::{Duration, Instant};

use serde::Deserialize;

use crate::api_usage::{ApiUsage, readable_usage};
use crate::context::window::{self, ContextUsage, UsageSource};
use crate::json::lenient::lenient;

/// The first look: enough for the last turns of almost every session.
const FIRST_WINDOW: u64 = 64 * 1024;
/// The most baton reads from one transcript's tail before giving up.
pub const MAX_TAIL_BYTES: u64 = 8 * 1024 * 1024;

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

/// Scans the transcript's tail, newest line first, for the current context size: the last
/// 64 KiB, then (rarely, behind a huge tool result) up to 8 MiB. Never the whole file.
/// `None` when the tail holds no usable line (a fresh session, only garbage).
pub fn last_context_usage(path: &Path, chain: Chain) -> io::Result<Option<TailUsage>> {
    let file = crate::fsx::open_regular(path)?;
    let size = file.metadata()?.len();
    // Everything from `end` on has been scanned; `end` is always the start of a line.
    let mut end = size;
    for window in [FIRST_WINDOW, MAX_TAIL_BYTES] {
        let start = size.saturating_sub(window);
        if start >= end {
            continue;
        }
        let mut buf = vec![0u8; (end - start) as usize];
        crate::platform::fs::read_exact_at(&file, &mut buf, start)?;
        // The first segment is a partial line unless the window starts the file.
        let skip = match buf.iter().position(|&b| b == b'\n') {
            _ if start == 0 => 0,
            Some(i) => i + 1,
            None => buf.len(),
        };
        for line in buf[skip..].rsplit(|&b| b == b'\n') {
            if let Some(found) = usage_in_line(line, chain) {
                return Ok(Some(found));
            }
        }
        end = start + skip as u64;
    }
    Ok(None)
}

/// How long the monitor waits for the reply that made a tool call to reach the transcript:
/// Claude Code can start the PostToolUse hook before writing that line (seen on 2.1.197,
/// 10–60 ms late in about half the hook runs of `claude -p`).
pub const WRITE_LAG_LIMIT: Duration = Duration::from_secs(1);

/// The wait also ends once the transcript has not grown for this long: a line that is
/// coming arrives well within it, and an id that never appears costs no more than this.
pub const WRITE_IDLE_LIMIT: Duration = Duration::from_millis(250);

/// Waits until the transcript mentions `tool_use_id`, for at most `limit` and for at most
/// [`WRITE_IDLE_LIMIT`] without the file growing; returns whether it did. The tail is searched
/// again only when the file has grown (a cheap `fstat` every 5 ms otherwise): the last 64 KiB
/// first, the last 8 MiB when a large tool result follows the reply. Ids that do not look like
/// tool ids are not waited for.
pub fn wait_for_tool_use(path: &Path, tool_use_id: &str, limit: Duration) -> bool {
    wait_for_tool_use_idle(path, tool_use_id, limit, WRITE_IDLE_LIMIT)
}

fn wait_for_tool_use_idle(path: &Path, tool_use_id: &str, limit: Duration, idle_limit: Duration) -> bool {
    let plausible = !tool_use_id.is_empty()
        && tool_use_id.len() <= 128
        && tool_use_id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    let Ok(file) = crate::fsx::open_regular(path) else {
        return false;
    };
    if !plausible {
        return false;
    }
    let started = Instant::now();
    let deadline = started + limit;
    let mut grew_at = started;
    let mut searched_size = None;
    loop {
        let Ok(size) = file.metadata().map(|m| m.len()) else {
            return false;
        };
        if searched_size != Some(size) {
            if searched_size.is_some() {
                grew_at = Instant::now();
            }
            searched_size = Some(size);
            match tail_mentions(&file, size, tool_use_id.as_bytes()) {
                Ok(true) => return true,
                Ok(false) => {}
                Err(_) => return false,
            }
        }
        let now = Instant::now();
        if now >= deadline || now.duration_since(grew_at) >= idle_limit {
            return false;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn tail_mentions(file: &std::fs::File, size: u64, needle: &[u8]) -> io::Result<bool> {
    for window in [FIRST_WINDOW, MAX_TAIL_BYTES] {
        let start = size.saturating_sub(window);
        let mut buf = vec![0u8; (size - start) as usize];
        crate::platform::fs::read_exact_at(file, &mut buf, start)?;
        if contains(&buf, needle) {
            return Ok(true);
        }
        if start == 0 {
            break;
        }
    }
    Ok(false)
}

/// The usage a single transcript line establishes, if it is one that decides it: an
/// assistant reply of `chain` with usage, or a compact boundary (only a `type: "system"`
/// line is one; a reply that merely mentions `compact_boundary` is a reply).
fn usage_in_line(line: &[u8], chain: Chain) -> Option<TailUsage> {
    // Cheap filters first: most lines are tool results and attachments.
    let maybe_boundary = contains(line, b"\"compact_boundary\"");
    let maybe_reply = contains(line, b"\"assistant\"") && contains(line, b"\"usage\"");
    if !maybe_boundary && !maybe_reply {
        return None;
    }
    let entry: TailLine = serde_json::from_slice(line).ok()?;
    match entry.kind.as_deref()? {
        "system" if entry.subtype.as_deref() == Some("compact_boundary") => {
            let post = entry.compact_metadata?.post_tokens?;
            Some(TailUsage {
                used_tokens: post.round() as u64,
                model: None,
                after_compaction: true,
            })
        }
        "assistant" => {
            if (chain == Chain::Main && entry.is_sidechain == Some(true)) || entry.is_api_error_message == Some(true) {
                return None;
            }
            let message = entry.message?;
            if message.model.as_deref() == Some("<synthetic>") {
                return None;
            }
            let used_tokens = message.usage?.context_tokens()?;
            Some(TailUsage {
                used_tokens,
                model: message.model,
                after_compaction: false,
            })
        }
        _ => None,
    }
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    memchr::memmem::find(haystack, needle).is_some()
}

/// The fields of a transcript line that decide the context size: an assistant reply's or
/// a compact boundary's.
#[derive(Deserialize)]
struct TailLine {
    #[serde(rename = "type", default, deserialize_with = "lenient")]
    kind: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    subtype: Option<String>,
    #[serde(rename = "isSidechain", default, deserialize_with = "lenient")]
    is_sidechain: Option<bool>,
    #[serde(rename = "isApiErrorMessage", default, deserialize_with = "lenient")]
    is_api_error_message: Option<bool>,
    #[serde(default, deserialize_with = "lenient")]
    message: Option<AssistantMessage>,
    #[serde(rename = "compactMetadata", default, deserialize_with = "lenient")]
    compact_metadata: Option<CompactMetadata>,
}

#[derive(Deserialize)]
struct AssistantMessage {
    #[serde(default, deserialize_with = "lenient")]
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
    fn waits_for_a_late_reply_line_but_not_forever() {
        let mut f = tempfile::NamedTempFile::new().unwrap();
        writeln!(f, "{}", assistant(1000, "")).unwrap();
        let path = f.path().to_path_buf();
        let writer = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(50));
            writeln!(
                f,
                r#"{{"type":"assistant","message":{{"content":[{{"type":"tool_use","id":"toolu_late"}}]}}}}"#
            )
            .unwrap();
            f
        });
        assert!(wait_for_tool_use(&path, "toolu_late", Duration::from_secs(5)));
        let _f = writer.join().unwrap();
        let started = Instant::now();
        assert!(!wait_for_tool_use(&path, "toolu_never", Duration::from_millis(30)));
        assert!(started.elapsed() < Duration::from_secs(2));
        assert!(!wait_for_tool_use(&path, "../../bad id", Duration::from_secs(5)));
    }

    #[test]
    fn stops_waiting_once_the_file_stops_growing() {
        let mut f = tempfile::NamedTempFile::new().unwrap();
        writeln!(f, "{}", assistant(1000, "")).unwrap();
        let started = Instant::now();
        assert!(!wait_for_tool_use(f.path(), "toolu_never", Duration::from_secs(30)));
        let waited = started.elapsed();
        assert!(
            waited >= WRITE_IDLE_LIMIT && waited < Duration::from_secs(5),
            "an idle file ends the wait after {WRITE_IDLE_LIMIT:?}, not the limit: {waited:?}"
        );

        // A file that keeps growing is waited for, until the line or the limit.
        let path = f.path().to_path_buf();
        let writer = std::thread::spawn(move || {
            for _ in 0..6 {
                std::thread::sleep(Duration::from_millis(40));
                writeln!(f, r#"{{"type":"progress"}}"#).unwrap();
            }
            writeln!(f, r#"{{"type":"assistant","note":"toolu_slow"}}"#).unwrap();
            f
        });
        assert!(
            wait_for_tool_use_idle(&path, "toolu_slow", Duration::from_secs(5), Duration::from_millis(150)),
            "growth keeps the wait alive past the idle limit"
        );
        let _f = writer.join().unwrap();
    }

    #[test]
    fn finds_the_reply_behind_a_large_tool_result_at_once() {
        let big = format!(
            r#"{{"type":"user","message":{{"content":[{{"tool_use_id":"toolu_big","content":"{}"}}]}}}}"#,
            "y".repeat(300_000)
        );
        let lines = vec![
            assistant(1000, "").replace(r#""id":"m""#, r#""id":"m","note":"toolu_big""#),
            big,
        ];
        let mut f = tempfile::NamedTempFile::new().unwrap();
        for l in &lines {
            writeln!(f, "{l}").unwrap();
        }
        let started = Instant::now();
        assert!(wait_for_tool_use(f.path(), "toolu_big", Duration::from_secs(5)));
        assert!(
            started.elapsed() < Duration::from_secs(1),
            "found without waiting out the limit"
        );
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
