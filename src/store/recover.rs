//! Loading the current document, and putting the store right when it is not: a torn last
//! journal line (a write cut short) is dropped; a document that is missing, unreadable, or a
//! version behind the journal (a write stopped between the journal and the document) is
//! rebuilt from the journal; a document edited by hand is kept and recorded as a new version;
//! a document without a journal becomes version 1. Every repair is reported in `notes`.

use std::time::Duration;

use serde_json::Value;

use super::journal::{self, Entry, Layout};
use super::ops::{self, Op};
use super::write::{Change, Writer};
use super::{MAX_DOCUMENT_BYTES, Store, Versioned, document_bytes};
use crate::error::{Error, Result};
use crate::fsx;

/// What the document file is, compared with the journal.
enum Found {
    Current(Value),
    Missing,
    Unreadable(String, Vec<u8>),
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
        let Ok(bytes) = fsx::read_regular(&self.document, MAX_DOCUMENT_BYTES) else {
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
        let mut layout = self.layout()?;
        self.drop_torn_line(&layout, notes)?;
        let last = self.last_entry(&layout)?;
        let found = match fsx::read_regular(&self.document, MAX_DOCUMENT_BYTES) {
            Ok(bytes) if last.as_ref().is_some_and(|l| matches(l, &bytes)) => match serde_json::from_slice(&bytes) {
                Ok(doc) => Found::Current(doc),
                Err(e) => Found::Unreadable(e.to_string(), bytes),
            },
            Ok(bytes) => match serde_json::from_slice::<Value>(&bytes) {
                Ok(_) => Found::Other(bytes),
                Err(e) => Found::Unreadable(e.to_string(), bytes),
            },
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Found::Missing,
            Err(e) => return Err(Error::io(&self.document, e)),
        };
        let shown = self.shown();
        let Some(last) = last else {
            // No journal: a document put here by hand (or by an older tool) becomes version 1.
            let doc = match found {
                Found::Current(doc) => doc,
                Found::Other(bytes) => serde_json::from_slice(&bytes).unwrap_or_default(),
                Found::Missing => return Err(self.missing()),
                Found::Unreadable(why, _) => {
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
            self.commit(&self.outside_writer(), start, &layout, vec![change])?;
            notes.push(format!(
                "{shown} had no journal: it is now version 1 of {}",
                self.dir.display()
            ));
            layout = self.layout()?;
            return Ok((self.read_locked_current()?, layout));
        };
        match found {
            Found::Current(doc) => Ok((Versioned { doc, version: last.v }, layout)),
            Found::Missing => {
                let current = self.rebuild(&layout, &last)?;
                notes.push(format!(
                    "{shown} was missing: rebuilt version {} from the journal",
                    last.v
                ));
                Ok((current, self.layout()?))
            }
            Found::Unreadable(why, bytes) => {
                let kept = self.keep_damaged(&bytes)?;
                let current = self.rebuild(&layout, &last)?;
                notes.push(format!(
                    "{shown} was damaged ({why}): rebuilt version {} from the journal; the damaged file is kept as {}",
                    last.v,
                    kept.display()
                ));
                Ok((current, self.layout()?))
            }
            Found::Other(bytes) => {
                if let Some(behind) = self.older_version_of(&layout, &bytes)? {
                    let current = self.rebuild(&layout, &last)?;
                    notes.push(format!(
                        "{shown} was at version {behind} while the journal holds {} (a write stopped before \
                         updating the document): brought it forward from the journal",
                        last.v
                    ));
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
                let written = self.commit(&self.outside_writer(), start, &layout, vec![change])?;
                notes.push(format!(
                    "{shown} was changed outside baton since version {}: recorded the change as version {}",
                    last.v, written.last
                ));
                Ok((self.read_locked_current()?, self.layout()?))
            }
        }
    }

    /// Drops a torn last line of the newest segment (cut short, or with unwritten blocks).
    fn drop_torn_line(&self, layout: &Layout, notes: &mut Vec<String>) -> Result<()> {
        let Some(base) = layout.journals.last() else {
            return Ok(());
        };
        let path = journal::segment_path(&self.dir, *base);
        let tail = journal::tail(&path, 1).map_err(|e| Error::io(&path, e))?;
        let mut keep = tail.complete_len;
        let mut dropped = tail.torn;
        // A complete last line is a crash's leftover only when part of it was never written
        // (NUL bytes); any other damage is reported, never dropped.
        if let Some(line) = tail.lines.last()
            && line.contains(&0)
            && journal::parse(line).is_err()
        {
            keep -= line.len() as u64 + 1;
            dropped += line.len() as u64 + 1;
        }
        if dropped > 0 {
            fsx::truncate_durable(&path, keep).map_err(|e| Error::io(&path, e))?;
            notes.push(format!(
                "{}: dropped a torn last line ({dropped} bytes of a write that did not finish; the document never had it)",
                path.display()
            ));
        }
        Ok(())
    }

    /// Rebuilds `last` from the journal, checks it against the recorded hash, writes it.
    fn rebuild(&self, layout: &Layout, last: &Entry) -> Result<Versioned> {
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
            // The newest entry is from a batch cut short: record the rebuilt document.
            let start = Versioned {
                doc: doc.clone(),
                version: last.v,
            };
            let change = Change {
                cmd: "recover".into(),
                ops: Vec::new(),
            };
            let written = self.commit(&self.outside_writer(), start, layout, vec![change])?;
            return Ok(Versioned {
                doc,
                version: written.last,
            });
        }
        fsx::write_atomic(&self.document, &bytes, 0o644, fsx::Durability::Durable)
            .map_err(|e| Error::io(&self.document, e))?;
        Ok(Versioned { doc, version: last.v })
    }

    /// The version `bytes` are, when the newest segment or a snapshot it builds on recorded it.
    /// A writer stopped before replacing the document leaves it there: a single write is one
    /// version behind, a batch at most its versions since its last snapshot (the document is
    /// replaced at each snapshot too).
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
            if found.is_none() && base > 0 && fsx::read_regular(&snapshot, MAX_DOCUMENT_BYTES).is_ok_and(|s| s == bytes)
            {
                found = Some(base);
            }
        }
        Ok(found)
    }

    /// Moves a damaged document aside (never deleted): `context.json.damaged-<time>`.
    fn keep_damaged(&self, bytes: &[u8]) -> Result<std::path::PathBuf> {
        let stamp = chrono::Utc::now().format("%Y%m%dT%H%M%S%.3fZ");
        let path = self.document.with_extension(format!("json.damaged-{stamp}"));
        fsx::write_atomic(&path, bytes, 0o644, fsx::Durability::Durable).map_err(|e| Error::io(&path, e))?;
        Ok(path)
    }

    /// Reads the document just written (the lock is held).
    fn read_locked_current(&self) -> Result<Versioned> {
        let layout = self.layout()?;
        let last = self.last_entry(&layout)?.ok_or_else(|| self.missing())?;
        let bytes = fsx::read_regular(&self.document, MAX_DOCUMENT_BYTES).map_err(|e| Error::io(&self.document, e))?;
        let doc = serde_json::from_slice(&bytes).map_err(|e| Error::invalid(&self.document, e.to_string()))?;
        Ok(Versioned { doc, version: last.v })
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
