//! The live context's largest items for the monitor's warnings (and the newest requests for
//! the mod's chart), kept up as a session goes:
//! the walk is saved in baton's private directory (`session-<key>-fills.json`; the chart's,
//! which also keeps the newest requests, in `session-<key>-fills-chart.json`, so that the
//! monitor's stays small) with the transcript offset it reached, so each look reads only the
//! bytes appended since; the items it found are saved beside it
//! (`session-<key>-fills-top.json`), the whole answer while the transcript keeps its length.
//! A first look (or one after more than [`LOOK_BYTES`] were appended) reads the transcript's
//! last [`LOOK_BYTES`] only: never the whole of a multi-GB file.

use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::Item;
use super::walk::Walk;
use crate::fsx;

/// Most bytes one look reads.
pub const LOOK_BYTES: u64 = 4 << 20;
/// The saved walk is small (the live items, the tool calls awaiting their results and the
/// newest requests).
const MAX_STATE_BYTES: u64 = 1 << 20;
/// Raised when the saved shape changes: an older file is then read afresh.
const VERSION: u32 = 4;

/// Largest items kept in the [`Summary`]: the monitor names three, the statusline one.
const SUMMARY_ITEMS: usize = 5;

/// What the last look found, small enough to read on every warning: while the transcript has
/// the length it had then, its items are the answer and neither the walk nor the transcript is
/// read.
#[derive(Serialize, Deserialize)]
struct Summary {
    version: u32,
    transcript: String,
    len: u64,
    largest: Vec<Item>,
}

/// What a look leaves for the next.
#[derive(Serialize, Deserialize)]
struct Saved<W> {
    version: u32,
    /// The transcript the walk is of, and how far it read (always after a newline).
    transcript: String,
    offset: u64,
    walk: W,
}

/// A transcript opened for a look: its name as saved and its length now.
struct Opened {
    file: std::fs::File,
    named: String,
    len: u64,
}

impl Opened {
    fn new(transcript: &Path) -> Option<Self> {
        let file = fsx::open_regular(transcript).ok()?;
        let len = file.metadata().map_or(0, |m| m.len());
        let named = transcript.to_string_lossy().into_owned();
        Some(Self { file, named, len })
    }
}

/// The live context's items of the conversation in `transcript`, largest first, kept under
/// `key` (a session id, or a session's subagent key); `subagent` when `transcript` is a
/// subagent's own. Empty when the transcript cannot be
/// read; a state that cannot be saved only costs the next look a longer read.
pub fn largest(key: &str, transcript: &Path, subagent: bool) -> Vec<Item> {
    let Some(opened) = Opened::new(transcript) else {
        return Vec::new();
    };
    if let Some(found) = summary_path(key)
        .as_deref()
        .and_then(load::<Summary>)
        .filter(|s| s.version == VERSION && s.transcript == opened.named && s.len == opened.len)
    {
        return found.largest;
    }
    look(key, opened, subagent, Saving::Live).map_or_else(Vec::new, |walk| walk.largest())
}

/// The conversation in `transcript` as the running walk kept under `key` has it now (read as
/// [`largest`] reads): its newest requests, each with its largest item, its compactions and
/// its live context. `None` when the transcript cannot be read.
pub fn timeline(key: &str, transcript: &Path, subagent: bool) -> Option<super::Timeline> {
    look(key, Opened::new(transcript)?, subagent, Saving::Recent).map(super::timeline)
}

/// What a running walk keeps, and the file it is saved in under its key.
#[derive(Clone, Copy)]
enum Saving {
    /// The live context only: the monitor's.
    Live,
    /// The newest requests too: the mod's chart.
    Recent,
}

impl Saving {
    fn suffix(self) -> &'static str {
        match self {
            Self::Live => "-fills.json",
            Self::Recent => "-fills-chart.json",
        }
    }

    fn fresh(self, subagent: bool) -> Walk {
        match self {
            Self::Live => Walk::of_thread(subagent),
            Self::Recent => Walk::of_thread(subagent).keeping_recent(),
        }
    }
}

/// The walk kept under `key`, taken up with what was appended to the transcript since; saves
/// it, and the [`Summary`] of its largest items, for the next look.
fn look(key: &str, opened: Opened, subagent: bool, saving: Saving) -> Option<Walk> {
    let Opened { mut file, named, len } = opened;
    let state = fsx::private_session_path(key, saving.suffix()).ok().flatten();
    let saved = state
        .as_deref()
        .and_then(load::<Saved<Walk>>)
        .filter(|s| s.version == VERSION && s.transcript == named && s.offset <= len && len - s.offset <= LOOK_BYTES);
    let (mut walk, start, whole_lines, kept) = match saved {
        Some(saved) => (saved.walk, saved.offset, true, true),
        None => (
            saving.fresh(subagent),
            len.saturating_sub(LOOK_BYTES),
            len <= LOOK_BYTES,
            false,
        ),
    };
    let mut bytes = Vec::new();
    if file.seek(SeekFrom::Start(start)).is_err() || file.take(len - start).read_to_end(&mut bytes).is_err() {
        return None;
    }
    // A look that starts inside the file starts after its first newline; the last line may
    // still be being written: it is read next time.
    let from = if whole_lines {
        0
    } else {
        memchr::memchr(b'\n', &bytes).map_or(bytes.len(), |at| at + 1)
    };
    let to = memchr::memrchr(b'\n', &bytes).map_or(0, |at| at + 1).max(from);
    for line in bytes[from..to]
        .split(|b| *b == b'\n')
        .filter(|l| super::worth_reading(l))
    {
        walk.line(line);
    }
    // Nothing new since the last look: the saved walk is already this one.
    let unchanged = kept && to == 0;
    if let Some(path) = state.filter(|_| !unchanged) {
        let saved = Saved {
            version: VERSION,
            transcript: named.clone(),
            offset: start + to as u64,
            walk: &walk,
        };
        save(&path, &saved);
    }
    if let Some(path) = summary_path(key) {
        let top = Summary {
            version: VERSION,
            transcript: named,
            len,
            largest: walk.largest().into_iter().take(SUMMARY_ITEMS).collect(),
        };
        save(&path, &top);
    }
    Some(walk)
}

/// Where the [`Summary`] under `key` is kept; `None` for an unsafe key or no private directory.
fn summary_path(key: &str) -> Option<PathBuf> {
    fsx::private_session_path(key, "-fills-top.json").ok().flatten()
}

/// Reads what [`save`] wrote at `path`: `None` when it is absent, a link, too large or not
/// what it should be.
fn load<T: serde::de::DeserializeOwned>(path: &Path) -> Option<T> {
    let bytes = fsx::read_private(path, MAX_STATE_BYTES).ok()?;
    serde_json::from_slice(&bytes).ok()
}

/// Writes `value` to `path` in baton's private directory, replacing whatever is there.
fn save(path: &Path, value: &impl Serialize) {
    if let Ok(json) = serde_json::to_vec(value)
        && let Err(e) = fsx::write_atomic(path, &json, 0o600, fsx::Durability::Ephemeral)
    {
        crate::log::note(&format!("monitor: cannot save what fills the context: {e}"));
    }
}
