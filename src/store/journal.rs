//! The journal: one JSON line per version, `{v, at, by, session, head, cmd, ops, size, hash}`,
//! in segments under `.baton/context/`. `journal-S.jsonl` holds the versions after S and is
//! replayed on top of `snapshot-S.json` (the document at version S; segment 0 starts from
//! nothing). Reading the newest entries reads a file from its end; a last line without its
//! newline (a write cut short) is told apart from the complete ones. The last line of every
//! finished write records the document's size and hash; lines after the last such line are a
//! write that did not finish. A segment whose snapshot is missing is not part of the store
//! (an interrupted compaction or batch leaves its copy of lines behind; see [`Layout`]).

use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::ops::Op;

/// One version: who wrote it, when, from which commit, and the change.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// The version this entry makes.
    pub v: u64,
    /// RFC 3339 UTC, milliseconds.
    pub at: String,
    /// The writer: `--as`, `$BATON_AGENT`, the agent type (hooks), or `unknown`.
    pub by: String,
    /// Claude Code's session, when the writer ran inside one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session: Option<String>,
    /// The git HEAD at the time of the write.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub head: Option<String>,
    /// The command that wrote it (`set`, `rollback 12`, `hook SubagentStop`…).
    pub cmd: String,
    pub ops: Vec<Op>,
    /// Length and FNV-1a hash of the document file this version wrote, when it wrote one
    /// (a batch writes it only at its end).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hash: Option<String>,
}

/// The hash the journal records for a document file's bytes.
pub fn hash(bytes: &[u8]) -> String {
    format!("{:016x}", crate::fsx::fnv1a(bytes))
}

/// Longest journal line baton reads: a line is one version's changes, at most a document.
pub const MAX_LINE_BYTES: u64 = super::MAX_READ_BYTES;

/// The segments and snapshots in the journal directory, by base version, oldest first.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Layout {
    /// Segments of the store: segment 0, and every other whose snapshot is there.
    pub journals: Vec<u64>,
    pub snapshots: Vec<u64>,
    /// Segments without their snapshot, which are not read: a compaction or a batch writes a
    /// segment's copy of lines before its snapshot, and deletes a snapshot before its segment,
    /// so a kill between the two leaves one (the store checks that it holds nothing newer).
    pub unfinished: Vec<u64>,
}

impl Layout {
    /// Reads the directory (missing: empty).
    pub fn read(dir: &Path) -> io::Result<Self> {
        let mut layout = Self::default();
        let entries = match std::fs::read_dir(dir) {
            Ok(entries) => entries,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(layout),
            Err(e) => return Err(e),
        };
        for entry in entries {
            let name = entry?.file_name();
            let name = name.to_string_lossy();
            let number =
                |prefix: &str, suffix: &str| name.strip_prefix(prefix)?.strip_suffix(suffix)?.parse::<u64>().ok();
            if let Some(base) = number("journal-", ".jsonl") {
                layout.journals.push(base);
            } else if let Some(base) = number("snapshot-", ".json") {
                layout.snapshots.push(base);
            }
        }
        layout.snapshots.sort_unstable();
        let (journals, unfinished) = layout
            .journals
            .iter()
            .partition(|base| **base == 0 || layout.snapshots.binary_search(base).is_ok());
        (layout.journals, layout.unfinished) = (journals, unfinished);
        layout.journals.sort_unstable();
        layout.unfinished.sort_unstable();
        Ok(layout)
    }

    /// Whether nothing has been journaled.
    pub fn is_empty(&self) -> bool {
        self.journals.is_empty() && self.snapshots.is_empty()
    }

    /// The base new entries go on: the newest snapshot or segment.
    pub fn head_base(&self) -> u64 {
        let journal = self.journals.last().copied().unwrap_or(0);
        journal.max(self.snapshots.last().copied().unwrap_or(0))
    }

    /// The base to rebuild `version` from: the newest snapshot at or before it (0: nothing).
    pub fn base_for(&self, version: u64) -> u64 {
        let snapshot = self.snapshots.iter().rev().find(|s| **s <= version).copied();
        snapshot.unwrap_or(0)
    }

    /// The oldest version that can be rebuilt.
    pub fn oldest(&self) -> u64 {
        match (self.journals.first(), self.snapshots.first()) {
            (Some(0), _) => 1,
            (_, Some(s)) => *s,
            (Some(j), None) => *j + 1,
            (None, None) => 0,
        }
    }
}

/// `journal-S.jsonl` in `dir`.
pub fn segment_path(dir: &Path, base: u64) -> PathBuf {
    dir.join(format!("journal-{base:012}.jsonl"))
}

/// `snapshot-S.json` in `dir`.
pub fn snapshot_path(dir: &Path, base: u64) -> PathBuf {
    dir.join(format!("snapshot-{base:012}.json"))
}

/// The complete lines at the end of a segment, and a torn one after them.
#[derive(Debug, Default)]
pub struct Tail {
    /// Up to the requested number of complete lines, oldest first.
    pub lines: Vec<Vec<u8>>,
    /// Length of the file up to the end of its last complete line.
    pub complete_len: u64,
    /// Bytes after the last newline: a write that did not finish.
    pub torn: u64,
}

/// Reads the last `count` complete lines of `path` from its end (never the whole file unless
/// the lines are that long).
pub fn tail(path: &Path, count: usize) -> io::Result<Tail> {
    let mut file = open_segment(path)?;
    let len = file.metadata()?.len();
    let mut end = len;
    let mut buffer: Vec<u8> = Vec::new();
    let mut chunk = 64 * 1024u64;
    let mut first_newline: Option<u64> = None;
    let mut tail = Tail::default();
    // `buffer` holds bytes [end, len) of the file, read backwards in growing chunks, until
    // it holds `count` whole lines that are not empty after its first (maybe partial) one.
    loop {
        let enough = first_newline.is_some() && whole_lines(&buffer) >= count;
        if enough || end == 0 {
            break;
        }
        if buffer.len() as u64 > MAX_LINE_BYTES.saturating_mul(count.max(1) as u64) {
            return Err(too_long(path));
        }
        let start = end.saturating_sub(chunk);
        let mut piece = vec![0; (end - start) as usize];
        file.seek(SeekFrom::Start(start))?;
        file.read_exact(&mut piece)?;
        piece.extend_from_slice(&buffer);
        buffer = piece;
        end = start;
        chunk = (chunk * 2).min(64 * 1024 * 1024);
        if first_newline.is_none()
            && let Some(i) = buffer.iter().rposition(|b| *b == b'\n')
        {
            first_newline = Some(end + i as u64);
        }
    }
    tail.complete_len = first_newline.map_or(0, |i| i + 1);
    tail.torn = len - tail.complete_len;
    let complete = &buffer[..(tail.complete_len - end) as usize];
    let mut lines: Vec<Vec<u8>> = complete
        .split(|b| *b == b'\n')
        .filter(|l| !l.is_empty())
        .map(<[u8]>::to_vec)
        .collect();
    // The first piece may start mid-line unless it reaches the file's start.
    if end > 0 && !lines.is_empty() {
        lines.remove(0);
    }
    let skip = lines.len().saturating_sub(count);
    tail.lines = lines.split_off(skip);
    Ok(tail)
}

/// Lines of `buffer` that are not empty between its first newline and its last one: the
/// complete lines of a piece of file that may start in the middle of a line.
fn whole_lines(buffer: &[u8]) -> usize {
    let (Some(first), Some(last)) = (memchr::memchr(b'\n', buffer), memchr::memrchr(b'\n', buffer)) else {
        return 0;
    };
    buffer[first + 1..=last]
        .split(|b| *b == b'\n')
        .filter(|line| !line.is_empty())
        .count()
}

/// Reads a segment's complete entries in order; a torn last line is left out and reported by
/// its length. A damaged line before the end is an error naming its line number.
pub fn read_segment(path: &Path, mut each: impl FnMut(Entry) -> io::Result<bool>) -> io::Result<u64> {
    read_lines(path, |_, line, number| {
        let entry = parse(line).map_err(|e| damaged(path, number, &e))?;
        each(entry)
    })
}

/// Reads a segment's complete lines in order, each with its offset in the file and its line
/// number, until `each` says stop; returns the length of a torn last line. A file that is not
/// a regular file (a FIFO planted at the name) is an error, never a wait; so is a line longer
/// than any version baton writes.
pub fn read_lines(path: &Path, mut each: impl FnMut(u64, &[u8], usize) -> io::Result<bool>) -> io::Result<u64> {
    let mut reader = BufReader::with_capacity(256 * 1024, open_segment(path)?);
    let mut line = Vec::new();
    let (mut number, mut offset) = (0, 0u64);
    loop {
        line.clear();
        let read = (&mut reader).take(MAX_LINE_BYTES + 1).read_until(b'\n', &mut line)?;
        if read == 0 {
            return Ok(0);
        }
        number += 1;
        if line.last() != Some(&b'\n') {
            return match read as u64 > MAX_LINE_BYTES {
                true => Err(too_long(path)),
                false => Ok(line.len() as u64),
            };
        }
        if !each(offset, &line, number)? {
            return Ok(0);
        }
        offset += read as u64;
    }
}

/// The length of `path` up to the end of its last finished write: the end of the last line
/// that records the document's hash (0 when none does). What follows it is a write cut short.
pub fn finished_len(path: &Path) -> io::Result<u64> {
    let mut finished = 0;
    read_lines(path, |offset, line, number| {
        let entry = parse(line).map_err(|e| damaged(path, number, &e))?;
        if entry.hash.is_some() {
            finished = offset + line.len() as u64;
        }
        Ok(true)
    })?;
    Ok(finished)
}

/// Opens a segment for reading, refusing (never waiting on) a FIFO or device at its name.
fn open_segment(path: &Path) -> io::Result<std::fs::File> {
    crate::fsx::open_regular(path).map_err(|e| match e.kind() {
        io::ErrorKind::InvalidInput => io::Error::new(
            e.kind(),
            "not a regular file (a FIFO, device or folder at a journal segment's name), which baton does not read: remove it",
        ),
        _ => e,
    })
}

fn too_long(path: &Path) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!(
            "{} has a line longer than the {} MiB any version can be",
            path.display(),
            MAX_LINE_BYTES / (1024 * 1024)
        ),
    )
}

/// Parses one journal line.
pub fn parse(line: &[u8]) -> Result<Entry, serde_json::Error> {
    serde_json::from_slice(line)
}

/// The error for a damaged line.
pub fn damaged(path: &Path, line: usize, why: &dyn std::fmt::Display) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!("{} line {line} is damaged ({why})", path.display()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(v: u64, pad: usize) -> String {
        format!(
            "{{\"v\":{v},\"at\":\"t\",\"by\":\"{}\",\"cmd\":\"set\",\"ops\":[]}}\n",
            "x".repeat(pad)
        )
    }

    #[test]
    fn the_tail_reads_the_last_lines_and_sees_a_torn_one() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("j.jsonl");
        let mut text: String = (1..=500).map(|v| line(v, 300)).collect();
        std::fs::write(&path, &text).unwrap();
        let tail = tail(&path, 3).unwrap();
        let versions: Vec<u64> = tail.lines.iter().map(|l| parse(l).unwrap().v).collect();
        assert_eq!(versions, [498, 499, 500]);
        assert_eq!((tail.torn, tail.complete_len), (0, text.len() as u64));

        text.push_str("{\"v\":501,\"at");
        std::fs::write(&path, &text).unwrap();
        let torn = super::tail(&path, 1).unwrap();
        assert_eq!(parse(&torn.lines[0]).unwrap().v, 500);
        assert_eq!(torn.torn, 12);
        let mut seen = 0;
        assert_eq!(
            read_segment(&path, |_| {
                seen += 1;
                Ok(true)
            })
            .unwrap(),
            12
        );
        assert_eq!(seen, 500);

        std::fs::write(&path, "{\"v\":1").unwrap();
        let only_torn = super::tail(&path, 1).unwrap();
        assert!(only_torn.lines.is_empty());
        assert_eq!((only_torn.complete_len, only_torn.torn), (0, 6));
    }

    /// Found by fuzzing (fuzz/fuzz_targets/journal.rs): the backwards read stopped once it
    /// had seen enough newlines, blank lines included, and returned fewer lines than asked
    /// for when a long line sat before blank ones.
    #[test]
    fn blank_lines_do_not_count_as_lines_of_the_tail() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("j.jsonl");
        let text = format!(
            "{}{}{}\n\n\n{}",
            line(1, 10),
            line(2, 100_000),
            line(3, 10),
            line(4, 10)
        );
        std::fs::write(&path, &text).unwrap();
        let tail = tail(&path, 3).unwrap();
        let versions: Vec<u64> = tail.lines.iter().map(|l| parse(l).unwrap().v).collect();
        assert_eq!(versions, [2, 3, 4]);
    }

    #[test]
    fn the_layout_picks_bases() {
        let layout = Layout {
            journals: vec![0, 100, 250],
            snapshots: vec![100, 250, 300],
            unfinished: Vec::new(),
        };
        assert_eq!(layout.head_base(), 300);
        assert_eq!(layout.base_for(99), 0);
        assert_eq!(layout.base_for(100), 100);
        assert_eq!(layout.base_for(299), 250);
        assert_eq!(layout.oldest(), 1);
        let compacted = Layout {
            journals: vec![250],
            snapshots: vec![250],
            unfinished: Vec::new(),
        };
        assert_eq!(compacted.oldest(), 250);
    }

    #[test]
    fn a_segment_without_its_snapshot_is_not_part_of_the_store() {
        let dir = tempfile::tempdir().unwrap();
        for name in [
            "journal-000000000000.jsonl",
            "journal-000000000004.jsonl",
            "journal-000000000009.jsonl",
        ] {
            std::fs::write(dir.path().join(name), "").unwrap();
        }
        std::fs::write(dir.path().join("snapshot-000000000009.json"), "{}").unwrap();
        let layout = Layout::read(dir.path()).unwrap();
        assert_eq!(
            (layout.journals, layout.unfinished, layout.snapshots),
            (vec![0, 9], vec![4], vec![9])
        );
    }

    #[test]
    fn a_write_cut_short_ends_after_the_last_line_with_a_hash() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("j.jsonl");
        let hashed = "{\"v\":1,\"at\":\"t\",\"by\":\"b\",\"cmd\":\"set\",\"ops\":[],\"size\":2,\"hash\":\"h\"}\n";
        let text = format!("{hashed}{}{}{{\"v\":4", line(2, 1), line(3, 1));
        std::fs::write(&path, &text).unwrap();
        assert_eq!(finished_len(&path).unwrap(), hashed.len() as u64);
        std::fs::write(&path, line(1, 1)).unwrap();
        assert_eq!(finished_len(&path).unwrap(), 0);
    }
}
