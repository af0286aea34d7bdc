//! Loading the current document, and putting the store right when it is not: the end of a
//! write cut short (a torn last journal line, or a batch's lines after the last one that
//! records the document) is dropped; a document that is missing, unreadable (moved aside, the
//! newest few kept), or a write behind the journal (a write stopped between the journal and
//! the document) is rebuilt from the journal; a document edited by hand is kept and recorded
//! as a new version; a document without a journal becomes version 1. Every repair is reported
//! in `notes`. On a full disk a rebuilt document that cannot be saved is still read.

use std::time::Duration;

use serde_json::Value;

use super::journal::{self, Entry, Layout};
use super::ops::{self, Op};
use super::write::{Change, Writer};
use super::{MAX_READ_BYTES, Store, Versioned, document_bytes};
use crate::error::{Error, Result};
use crate::fsx;

/// How many damaged documents are kept aside (`context.json.damaged-*`), the newest.
const DAMAGED_COPIES_KEPT: usize = 3;

/// What the document file is, compared with the journal.
enum Found {
    Current(Value),
    Missing,
    Unreadable(String),
    Other(Vec<u8>),
}

impl Store {
    /// The current document. Reads without the lock when the document matches the journal's
    /// newest version (the usual case); otherwise takes the lock and repairs (waiting at most
    /// `wait`).
    pub fn read_current(&self, wait: Duration, notes: &mut Vec<String>) -> Result<Versioned> {
        if !self.exists() {
            return Err(self.missing());
        }
        if let Some(current) = self.quick_read()? {
            return Ok(current);
        }
        let _lock = self.lock(wait)?;
        Ok(self.load_locked(notes)?.0)
    }

    /// The document when it matches the newest complete journal entry; `None` when the store
    /// needs a closer look (or a writer is half-way).
    fn quick_read(&self) -> Result<Option<Versioned>> {
        let layout = self.layout()?;
        // A damaged last line is for the locked path to drop.
        let Ok(Some(last)) = self.last_entry(&layout) else {
            return Ok(None);
        };
        let Ok(bytes) = fsx::read_regular(&self.document, MAX_READ_BYTES) else {
            return Ok(None);
        };
        if !matches(&last, &bytes) {
            return Ok(None);
        }
        Ok(serde_json::from_slice(&bytes)
            .ok()
            .map(|doc| Versioned { doc, version: last.v }))
    }

    /// The current document and the layout, with the lock held: repairs what needs it first.
    pub(super) fn load_locked(&self, notes: &mut Vec<String>) -> Result<(Versioned, Layout)> {
        let layout = self.layout()?;
        self.drop_unfinished_write(&layout, notes)?;
        let last = self.last_entry(&layout)?;
        let found = match fsx::read_regular(&self.document, MAX_READ_BYTES) {
            Ok(bytes) if last.as_ref().is_some_and(|l| matches(l, &bytes)) => match serde_json::from_slice(&bytes) {
                Ok(doc) => Found::Current(doc),
                Err(e) => Found::Unreadable(e.to_string()),
            },
            Ok(bytes) => match serde_json::from_slice::<Value>(&bytes) {
                Ok(_) => Found::Other(bytes),
                Err(e) => Found::Unreadable(e.to_string()),
            },
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Found::Missing,
            // A FIFO, device or folder at the name: moved aside like a damaged file.
            Err(e) if e.kind() == std::io::ErrorKind::InvalidInput => Found::Unreadable(e.to_string()),
            Err(e) => return Err(Error::io(&self.document, e)),
        };
        let shown = self.shown();
        let Some(last) = last else {
            // No journal: a document put here by hand (or by an older tool) becomes version 1.
            let doc = match found {
                Found::Current(doc) => doc,
                Found::Other(bytes) => serde_json::from_slice(&bytes).unwrap_or_default(),
                Found::Missing => return Err(self.missing()),
                Found::Unreadable(why) => {
                    return Err(Error::invalid(
                        &self.document,
                        format!("is not JSON ({why}) and there is no journal to rebuild it from; fix or remove it"),
                    ));
                }
            };
            let start = Versioned {
                doc: Value::Null,
                version: 0,
            };
            let change = Change {
                cmd: "adopt".into(),
                ops: vec![Op::set(&super::path::DocPath::root(), doc)],
            };
            let written = self.commit(&self.outside_writer(), start, &layout, vec![change], notes)?;
            notes.push(format!(
                "{shown} had no journal: it is now version 1 of {}",
                self.dir.display()
            ));
            return Ok((written.into(), self.layout()?));
        };
        match found {
            Found::Current(doc) => Ok((Versioned { doc, version: last.v }, layout)),
            Found::Missing => {
                notes.push(format!(
                    "{shown} was missing: rebuilt version {} from the journal",
                    last.v
                ));
                let current = self.rebuild(&layout, &last, notes)?;
                Ok((current, self.layout()?))
            }
            Found::Unreadable(why) => {
                let kept = self.move_damaged_aside()?;
                notes.push(format!(
                    "{shown} was damaged ({why}): rebuilt version {} from the journal; the damaged file is kept as {}",
                    last.v,
                    kept.display()
                ));
                let current = self.rebuild(&layout, &last, notes)?;
                Ok((current, self.layout()?))
            }
            Found::Other(bytes) => {
                if let Some(behind) = self.older_version_of(&layout, &bytes)? {
                    notes.push(format!(
                        "{shown} was at version {behind} while the journal holds {} (a write stopped before \
                         updating the document): brought it forward from the journal",
                        last.v
                    ));
                    let current = self.rebuild(&layout, &last, notes)?;
                    return Ok((current, self.layout()?));
                }
                let edited: Value = serde_json::from_slice(&bytes).unwrap_or_default();
                let journaled = self.replay(&layout, last.v, &mut |_| {})?;
                let change = Change {
                    cmd: "edit outside baton".into(),
                    ops: ops::diff(&journaled, &edited),
                };
                let start = Versioned {
                    doc: journaled,
                    version: last.v,
                };
                let written = self
                    .commit(&self.outside_writer(), start, &layout, vec![change], notes)
                    .map_err(|e| {
                        let what = format!(
                            "{shown} was changed outside baton since version {}, and the change cannot be recorded",
                            last.v
                        );
                        Error::because(what, e)
                            .advised(format!(". Fix the file, or remove it to go back to version {}", last.v))
                    })?;
                notes.push(format!(
                    "{shown} was changed outside baton since version {}: recorded the change as version {}",
                    last.v, written.last
                ));
                Ok((written.into(), self.layout()?))
            }
        }
    }

    /// Drops what a write cut short left at the end of the newest segment: a torn last line
    /// (cut short, or with blocks never written: NUL bytes), and the complete lines after the
    /// last one that records the document (a batch's append cut short). No command
    /// acknowledged them, and the document never had them.
    fn drop_unfinished_write(&self, layout: &Layout, notes: &mut Vec<String>) -> Result<()> {
        let Some(base) = layout.journals.last() else {
            return Ok(());
        };
        let path = journal::segment_path(&self.dir, *base);
        let tail = journal::tail(&path, 1).map_err(|e| Error::io(&path, e))?;
        let mut keep = tail.complete_len;
        let mut unfinished_lines = false;
        // A complete last line is a crash's leftover only when part of it was never written
        // (NUL bytes); any other damage is reported, never dropped.
        if let Some(line) = tail.lines.last() {
            match journal::parse(line) {
                Err(_) if line.contains(&0) => keep -= line.len() as u64 + 1,
                Ok(entry) if entry.hash.is_none() => {
                    keep = journal::finished_len(&path).map_err(|e| Error::io(&path, e))?;
                    unfinished_lines = true;
                }
                _ => {}
            }
        }
        let dropped = tail.complete_len + tail.torn - keep;
        if dropped == 0 {
            return Ok(());
        }
        fsx::truncate_durable(&path, keep).map_err(|e| Error::io(&path, e))?;
        notes.push(match unfinished_lines {
            false => format!(
                "{}: dropped a torn last line ({dropped} bytes of a write that did not finish; the document never had it)",
                path.display()
            ),
            true => format!(
                "{}: dropped the lines of a batch that did not finish ({dropped} bytes; no command acknowledged them \
                 and the document never had them)",
                path.display()
            ),
        });
        Ok(())
    }

    /// Rebuilds `last` from the journal, checks it against the recorded hash, writes it. A
    /// document that cannot be written (a full disk) is served from memory, said in `notes`.
    fn rebuild(&self, layout: &Layout, last: &Entry, notes: &mut Vec<String>) -> Result<Versioned> {
        let doc = self.replay(layout, last.v, &mut |_| {})?;
        let bytes = document_bytes(&doc);
        if last.hash.as_ref().is_some_and(|h| *h != journal::hash(&bytes)) {
            return Err(Error::invalid(
                &self.dir,
                format!(
                    "replaying the journal does not give version {} as recorded; run `baton ctx validate`",
                    last.v
                ),
            ));
        }
        if last.hash.is_none() {
            // An older baton's batch cut short: record the rebuilt document.
            let start = Versioned { doc, version: last.v };
            let change = Change {
                cmd: "recover".into(),
                ops: Vec::new(),
            };
            return Ok(self
                .commit(&self.outside_writer(), start, layout, vec![change], notes)?
                .into());
        }
        if let Err(e) = fsx::write_atomic(&self.document, &bytes, 0o644, fsx::Durability::Durable) {
            // What is there is not the current version: without it, the next reader rebuilds too.
            let _ = fsx::remove_if_exists(&self.document);
            notes.push(format!(
                "could not write the rebuilt {} ({e}): read it from the journal this time",
                self.shown()
            ));
        }
        Ok(Versioned { doc, version: last.v })
    }

    /// The version `bytes` are, when the newest segment or a snapshot it builds on recorded it.
    /// A writer stopped before replacing the document leaves it there: one write behind, all
    /// of whose lines are in the newest segment (its snapshots are taken after the document).
    fn older_version_of(&self, layout: &Layout, bytes: &[u8]) -> Result<Option<u64>> {
        let hash = journal::hash(bytes);
        let newest = layout.journals.last().copied().unwrap_or(0);
        let mut found = None;
        if layout.journals.contains(&newest) {
            let path = journal::segment_path(&self.dir, newest);
            journal::read_segment(&path, |entry: Entry| {
                if entry.hash.as_deref() == Some(&hash) && entry.size == Some(bytes.len() as u64) {
                    found = Some(entry.v);
                }
                Ok(true)
            })
            .map_err(|e| Error::io(&path, e))?;
        }
        for base in [newest, layout.head_base()] {
            let snapshot = journal::snapshot_path(&self.dir, base);
            if found.is_none() && base > 0 && fsx::read_regular(&snapshot, MAX_READ_BYTES).is_ok_and(|s| s == bytes) {
                found = Some(base);
            }
        }
        Ok(found)
    }

    /// Moves a damaged document aside, `context.json.damaged-<time>` (a rename: it needs no
    /// room on the disk). The newest [`DAMAGED_COPIES_KEPT`] are kept; older ones go.
    fn move_damaged_aside(&self) -> Result<std::path::PathBuf> {
        let stamp = chrono::Utc::now().format("%Y%m%dT%H%M%S%.3fZ");
        let path = self.document.with_extension(format!("json.damaged-{stamp}"));
        std::fs::rename(&self.document, &path).map_err(|e| Error::io(&self.document, e))?;
        fsx::sync_dir(&path);
        let prefix = "context.json.damaged-";
        let dir = path.parent().unwrap_or(std::path::Path::new("."));
        let mut kept: Vec<String> = std::fs::read_dir(dir)
            .map_err(|e| Error::io(dir, e))?
            .flatten()
            .filter_map(|e| e.file_name().to_str().map(str::to_owned))
            .filter(|name| name.starts_with(prefix))
            .collect();
        kept.sort();
        for old in kept.iter().rev().skip(DAMAGED_COPIES_KEPT) {
            let _ = fsx::remove_if_exists(&dir.join(old));
        }
        Ok(path)
    }

    /// The writer of changes baton finds rather than makes.
    fn outside_writer(&self) -> Writer {
        Writer::hook("outside baton", None, self.root())
    }

    /// The document's path in a message: relative to the project, with `/` on every system.
    fn shown(&self) -> String {
        crate::platform::path::below(&self.document, self.root())
    }
}

/// Whether `bytes` are the document `entry` wrote.
fn matches(entry: &Entry, bytes: &[u8]) -> bool {
    entry.size == Some(bytes.len() as u64) && entry.hash.as_deref() == Some(journal::hash(bytes).as_str())
}
