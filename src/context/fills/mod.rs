//! What fills the context (`baton window`): request by request, how much the context grew and
//! which file, command, result, prompt or attachment took the space, from the transcript
//! alone. Each request's size is exactly its usage (input + cache writes + cache reads); its
//! growth is split over what entered since the request before by size in bytes (marked
//! `estimated` when there was more than one item). Compactions reset the live context.

pub mod chart;
mod codec;
mod line;
mod names;
pub mod running;
pub mod svg;
mod walk;

use std::collections::BTreeMap;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::accounting::chunks::{MAX_LINE_BYTES, for_each_chunk_capped};
use crate::config::Config;
use crate::context::window::{limit::Limit, window_size};

/// What an item is.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// A tool's result, named by the tool and its target.
    Tool,
    /// The user's prompt.
    Prompt,
    /// Text the client added to the conversation (a skill's body, a command's output).
    Reminder,
    /// An attachment: hook context, a file-change notice, a todo or token reminder.
    Attachment,
    /// The assistant's own text and tool calls (a Write's content, too).
    Assistant,
    Thinking,
    /// The summary a compaction left.
    Summary,
    /// The context shrank without a compaction (older results cleared by the client).
    Cleared,
    /// Growth with nothing in the transcript to put it on.
    Other,
}

impl Kind {
    pub fn label(self) -> &'static str {
        match self {
            Self::Tool => "tool results",
            Self::Prompt => "prompts",
            Self::Reminder => "reminders",
            Self::Attachment => "attachments",
            Self::Assistant => "assistant output",
            Self::Thinking => "thinking",
            Self::Summary => "compaction summary",
            Self::Cleared => "cleared",
            Self::Other => "other",
        }
    }
}

/// One thing that entered the context, with the tokens it took.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct Item {
    pub kind: Kind,
    pub tool: Option<String>,
    pub target: Option<String>,
    pub tokens: i64,
    /// The tokens are a share of the request's growth by size, not measured alone.
    pub estimated: bool,
    #[serde(skip)]
    pub bytes: usize,
}

impl Item {
    pub(super) fn whole(kind: Kind, tokens: i64) -> Self {
        Self {
            kind,
            tool: None,
            target: None,
            tokens,
            estimated: false,
            bytes: 0,
        }
    }

    /// [`Item::name`] with a file tool's path cut to its file name: `Read ledger_dump.sql`.
    pub fn short_name(&self) -> String {
        let file_tool = matches!(
            self.tool.as_deref(),
            Some("Read" | "Write" | "Edit" | "MultiEdit" | "NotebookEdit")
        );
        match (&self.target, file_tool) {
            (Some(path), true) => {
                let file = path.rsplit(['/', '\\']).find(|part| !part.is_empty()).unwrap_or(path);
                let tool = self.tool.as_deref().unwrap_or_default();
                match self.kind {
                    Kind::Assistant => format!("assistant {tool} {file}"),
                    _ => format!("{tool} {file}"),
                }
            }
            _ => self.name(),
        }
    }

    /// Whether `other` has the same kind, tool and target.
    pub(super) fn is_named_as(&self, other: &Item) -> bool {
        self.kind == other.kind && self.tool == other.tool && self.target == other.target
    }

    /// How the item is named to a person: `Read src/app.ts`, `prompt "fix the bug"`.
    pub fn name(&self) -> String {
        self.name_parts().concat()
    }

    /// Orders items as their [`Item::name`]s, without building them.
    pub(super) fn cmp_names(&self, other: &Item) -> std::cmp::Ordering {
        let (ours, theirs) = (self.name_parts(), other.name_parts());
        ours.iter()
            .flat_map(|part| part.bytes())
            .cmp(theirs.iter().flat_map(|part| part.bytes()))
    }

    /// [`Item::name`] in the pieces it is made of.
    fn name_parts(&self) -> [&str; 5] {
        let (lead, head) = match (self.kind, &self.tool) {
            (Kind::Tool | Kind::Attachment, Some(tool)) => ("", tool.as_str()),
            (Kind::Assistant, Some(tool)) => ("assistant ", tool.as_str()),
            (kind, _) => ("", kind.label().trim_end_matches('s')),
        };
        let (open, target, close) = match (&self.target, self.kind) {
            (Some(target), Kind::Prompt) => (" \"", target.as_str(), "\""),
            (Some(target), _) => (" ", target.as_str(), ""),
            (None, _) => ("", "", ""),
        };
        [lead, head, open, target, close]
    }
}

/// One request of the conversation.
#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct Request {
    pub n: usize,
    pub at: Option<String>,
    pub context_tokens: u64,
    /// Growth since the request before (since the baseline for the first after a compaction).
    pub delta: i64,
    pub items: Vec<Item>,
}

/// A compaction: the live context before and after, as the client recorded them.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct Compaction {
    pub before_request: usize,
    pub tokens_before: Option<u64>,
    pub tokens_after: Option<u64>,
}

/// What the context holds now, since the last compaction.
#[derive(Serialize, Clone, Debug, Default)]
pub struct Live {
    pub tokens: u64,
    /// The first request's size: system prompt, tools, memory files. Not an item.
    pub baseline: u64,
    /// Largest first.
    pub items: Vec<Item>,
    pub by_kind: BTreeMap<Kind, i64>,
}

/// A session's context, request by request.
#[derive(Serialize, Clone, Debug, Default)]
pub struct Timeline {
    pub model: Option<String>,
    pub requests: Vec<Request>,
    pub compactions: Vec<Compaction>,
    pub live: Live,
    /// Lines that were not JSON objects, left out.
    #[serde(skip)]
    pub unreadable_lines: u64,
}

impl Timeline {
    /// The window of the conversation's model (`reported` when the client gave it, else as
    /// large as its largest request needs) and the tokens at which the client compacts it.
    pub fn window(&self, reported: Option<u64>, config: &Config) -> (u64, u64) {
        let model = self.model.as_deref();
        let largest = self.requests.iter().map(|r| r.context_tokens).max();
        let window = window_size(reported, model, config.context_window_size(), largest);
        (window, Limit::for_session(window, model, config).tokens)
    }
}

/// Reads a transcript, in chunks (memory stays flat whatever its size).
pub fn read(path: &Path) -> std::io::Result<Timeline> {
    read_from(crate::fsx::open_regular(path)?)
}

/// Reads a transcript from any reader.
pub fn read_from(reader: impl Read + Send) -> std::io::Result<Timeline> {
    walk_lines(reader, false, MAX_LINE_BYTES)
}

/// The longest line a tail read keeps whole: half the whole read's, so that a tail read beside
/// a usage scan (the session report) keeps at most one and a half scans' memory. A longer
/// line (a huge image or tool result) is left out as unreadable.
const TAIL_MAX_LINE: usize = MAX_LINE_BYTES / 2;

/// Reads the last `max_bytes` of a transcript (from the first line that starts in them), as
/// [`read`] reads the whole: the requests in them, and what entered the context since the
/// last compaction in them. Also says whether the whole transcript was read.
pub fn read_tail(path: &Path, max_bytes: u64) -> std::io::Result<(Timeline, bool)> {
    let mut file = crate::fsx::open_regular(path)?;
    let len = file.metadata()?.len();
    let start = len.saturating_sub(max_bytes);
    if start == 0 {
        return Ok((walk_lines(file, false, TAIL_MAX_LINE)?, true));
    }
    // The tail starts on a line's first byte when the byte before it ends a line.
    file.seek(SeekFrom::Start(start - 1))?;
    let mut before = [0u8];
    file.read_exact(&mut before)?;
    Ok((
        walk_lines(file.take(len - start), before[0] != b'\n', TAIL_MAX_LINE)?,
        false,
    ))
}

/// Walks the lines of `reader` (those up to `max_line` bytes), the first left out when
/// `partial_first` (a line cut by the start of a tail).
fn walk_lines(reader: impl Read + Send, partial_first: bool, max_line: usize) -> std::io::Result<Timeline> {
    let mut walk = walk::Walk::keeping_requests();
    let mut skip_first = partial_first;
    for_each_chunk_capped(reader, max_line, pick_lines, |chunk, picks| {
        for range in picks {
            if std::mem::take(&mut skip_first) && range.start == 0 {
                continue;
            }
            walk.line(&chunk[range.clone()]);
        }
    })?;
    Ok(timeline(walk))
}

/// The lines of `chunk` worth reading ([`worth_reading`]).
fn pick_lines(chunk: &[u8], picks: &mut Vec<std::ops::Range<usize>>) {
    let mut start = 0;
    while start < chunk.len() {
        let end = memchr::memchr(b'\n', &chunk[start..]).map_or(chunk.len(), |at| start + at);
        if worth_reading(&chunk[start..end]) {
            picks.push(start..end);
        }
        start = end + 1;
    }
}

/// Every line but blank ones and the client's request records (`api-request-blob` repeats
/// what was sent), which are left unparsed.
fn worth_reading(line: &[u8]) -> bool {
    !line.starts_with(b"{\"type\":\"api-request") && !line.iter().all(u8::is_ascii_whitespace)
}

fn timeline(walk: walk::Walk) -> Timeline {
    Timeline {
        model: walk.model.clone(),
        live: Live {
            tokens: walk.latest.unwrap_or(0),
            baseline: walk.baseline.unwrap_or(0),
            items: walk.largest(),
            by_kind: walk.by_kind,
        },
        requests: walk.requests,
        compactions: walk.compactions,
        unreadable_lines: walk.unreadable_lines,
    }
}

#[cfg(test)]
mod tests;
