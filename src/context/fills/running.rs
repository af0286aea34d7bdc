//! The live context's largest items for the monitor's warnings (and the newest requests for
//! the mod's chart), kept up as a session goes: the walk is saved in baton's private directory
//! (`session-<key>-fills.bin`; the chart's, which also keeps the newest requests, in
//! `session-<key>-fills-chart.bin`, so that the monitor's stays small) with the transcript
//! offset it reached, so each look reads only the bytes appended since. The largest items it
//! found lead the file, before the walk: while the transcript keeps its length they are the
//! whole answer, and neither the walk nor the transcript is read. The file is in
//! [`super::codec`]'s bytes, read and written whole on every look that grew.
//! A first look (or one after more than [`LOOK_BYTES`] were appended) reads the transcript's
//! last [`LOOK_BYTES`] only: never the whole of a multi-GB file.

use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use super::Item;
use super::codec::{Input, Stored};
use super::walk::Walk;
use crate::fsx;

/// Most bytes one look reads.
pub const LOOK_BYTES: u64 = 4 << 20;
/// The saved walk is small (the live items, the tool calls awaiting their results and the
/// newest requests).
const MAX_STATE_BYTES: u64 = 1 << 20;
/// Raised when the saved shape changes: an older file is then read afresh.
const VERSION: u32 = 5;

/// Largest items kept at the head of the state: the monitor names three, the statusline one.
const SUMMARY_ITEMS: usize = 5;

/// What leads the saved state, small and read on every look: the transcript and its length at
/// the last look, the largest items found then, and how far the walk after it read.
struct Head {
    transcript: String,
    len: u64,
    largest: Vec<Item>,
    /// Always just after a newline.
    offset: u64,
}

impl Head {
    /// Reads the head of a state of this [`VERSION`]; the walk follows it in `input`.
    fn restore(input: &mut Input<'_>) -> Option<Self> {
        (u32::restore(input)? == VERSION).then_some(())?;
        Some(Self {
            transcript: Stored::restore(input)?,
            len: Stored::restore(input)?,
            largest: Stored::restore(input)?,
            offset: Stored::restore(input)?,
        })
    }

    fn store(&self, out: &mut Vec<u8>) {
        VERSION.store(out);
        self.transcript.store(out);
        self.len.store(out);
        self.largest.store(out);
        self.offset.store(out);
    }
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

/// The live context's largest items (up to [`SUMMARY_ITEMS`]) of the conversation in
/// `transcript`, largest first, kept under `key` (a session id, or a session's subagent key);
/// `subagent` when `transcript` is a subagent's own. Empty when the transcript cannot be read;
/// a state that cannot be saved only costs the next look a longer read.
pub fn largest(key: &str, transcript: &Path, subagent: bool) -> Vec<Item> {
    let Some(opened) = Opened::new(transcript) else {
        return Vec::new();
    };
    let state = Saving::Live.path(key);
    let bytes = state.as_deref().and_then(load).unwrap_or_default();
    let mut input = Input::new(&bytes);
    let head = Head::restore(&mut input).filter(|head| head.transcript == opened.named);
    if let Some(head) = head.as_ref().filter(|head| head.len == opened.len) {
        return head.largest.clone();
    }
    let kept = head.and_then(|head| Some((head.offset, Walk::restore(&mut input).filter(|_| input.is_done())?)));
    look(state, opened, subagent, Saving::Live, kept).map_or_else(Vec::new, |(_, largest)| largest)
}

/// The conversation in `transcript` as the running walk kept under `key` has it now (read as
/// [`largest`] reads): its newest requests, each with its largest item, its compactions and
/// its live context. `None` when the transcript cannot be read.
pub fn timeline(key: &str, transcript: &Path, subagent: bool) -> Option<super::Timeline> {
    let opened = Opened::new(transcript)?;
    let state = Saving::Recent.path(key);
    let bytes = state.as_deref().and_then(load).unwrap_or_default();
    let mut input = Input::new(&bytes);
    let kept = Head::restore(&mut input)
        .filter(|head| head.transcript == opened.named)
        .and_then(|head| Some((head.offset, Walk::restore(&mut input).filter(|_| input.is_done())?)));
    look(state, opened, subagent, Saving::Recent, kept).map(|(walk, _)| super::timeline(walk))
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
    /// Where the walk under `key` is kept; `None` for an unsafe key or no private directory.
    fn path(self, key: &str) -> Option<PathBuf> {
        let suffix = match self {
            Self::Live => "-fills.bin",
            Self::Recent => "-fills-chart.bin",
        };
        fsx::private_session_path(key, suffix).ok().flatten()
    }

    fn fresh(self, subagent: bool) -> Walk {
        match self {
            Self::Live => Walk::of_thread(subagent),
            Self::Recent => Walk::of_thread(subagent).keeping_recent(),
        }
    }
}

/// The walk `kept` (with the offset it reached) taken up with what was appended to the
/// transcript since, or a fresh one; saves it at `state`, after its largest items, for the
/// next look. The walk and its [`SUMMARY_ITEMS`] largest live items, largest first.
fn look(
    state: Option<PathBuf>,
    opened: Opened,
    subagent: bool,
    saving: Saving,
    kept: Option<(u64, Walk)>,
) -> Option<(Walk, Vec<Item>)> {
    let Opened { mut file, named, len } = opened;
    let kept = kept.filter(|(offset, _)| *offset <= len && len - offset <= LOOK_BYTES);
    let (mut walk, start, whole_lines) = match kept {
        Some((offset, walk)) => (walk, offset, true),
        None => (
            saving.fresh(subagent),
            len.saturating_sub(LOOK_BYTES),
            len <= LOOK_BYTES,
        ),
    };
    // Sized up front: one read, not a dozen growing ones.
    let mut bytes = Vec::with_capacity(usize::try_from(len - start).unwrap_or(0));
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
    let largest = walk.largest_few(SUMMARY_ITEMS);
    if let Some(path) = state {
        let head = Head {
            transcript: named,
            len,
            largest: largest.clone(),
            offset: start + to as u64,
        };
        let mut out = Vec::with_capacity(4096);
        head.store(&mut out);
        walk.store(&mut out);
        if let Err(e) = fsx::write_atomic(&path, &out, 0o600, fsx::Durability::Ephemeral) {
            crate::log::note(&format!("monitor: cannot save what fills the context: {e}"));
        }
    }
    Some((walk, largest))
}

/// Reads the state saved at `path`: `None` when it is absent, a link or too large.
fn load(path: &Path) -> Option<Vec<u8>> {
    fsx::read_private(path, MAX_STATE_BYTES).ok()
}
