//! Committing versions, with the store's lock held. Every change is applied in memory and
//! checked first (how deep it nests the document, how large the document grows, that a version
//! number follows); then all its journal lines go to the newest segment in one durable append.
//! That append is the commit point: one that fails is undone and nothing is written, so a
//! write is either acknowledged and applied or neither. What follows is derived from the
//! journal: the document, replaced atomically (when it cannot be, it is removed, and readers
//! rebuild it from the journal), then a snapshot wherever the changes since the last one add
//! up to the document's size, each after its segment (a copy of the lines that follow it),
//! newest first. A snapshot that cannot be written is left to a later write.

use super::document::{self, MAX_DEPTH};
use super::journal::{self, Entry, Layout};
use super::ops::Op;
use super::path::DocPath;
use super::write::{Change, Writer, Written, advance_context_version};
use super::{MAX_DOCUMENT_BYTES, Store, Versioned, document_bytes};
use crate::error::{Context, Error, Result};
use crate::fsx;

/// A segment is closed by a snapshot once it holds this much, or the document's size if larger:
/// a long history of a small document stays a few files per MiB of journal, each replayed in
/// well under a millisecond.
pub const MIN_SEGMENT_BYTES: u64 = 256 * 1024;

/// A snapshot a write takes: its version, the document then, and where the lines after it
/// begin in the write's append.
struct Split {
    version: u64,
    bytes: Vec<u8>,
    from: usize,
}

impl Store {
    /// Applies `changes` to `current` (one version each) and writes them. Every change is
    /// applied and checked before anything is written: one that does not apply, nests too
    /// deep or grows the document past its cap writes nothing.
    pub(super) fn commit(
        &self,
        writer: &Writer,
        current: Versioned,
        layout: &Layout,
        changes: Vec<Change>,
        notes: &mut Vec<String>,
    ) -> Result<Written> {
        let Versioned { mut doc, mut version } = current;
        let before = version;
        let head_path = journal::segment_path(&self.dir, layout.head_base());
        let mut segment_bytes = std::fs::metadata(&head_path).map_or(0, |m| m.len());
        let old_size = std::fs::metadata(&self.document).map_or(0, |m| m.len());
        let mut document_size = old_size;
        let mut lines = Vec::new();
        let mut splits = Vec::new();
        let mut final_bytes = Vec::new();
        let count = changes.len();
        for (i, change) in changes.into_iter().enumerate() {
            let mut ops = change.ops;
            for op in &ops {
                check_depth(op).context(format!("cannot {}", change.cmd))?;
                op.apply(&mut doc).context(format!("cannot {}", change.cmd))?;
            }
            version = version.checked_add(1).ok_or_else(|| no_version_after(version))?;
            advance_context_version(&mut doc, &mut ops, version);
            let mut entry = Entry {
                v: version,
                at: crate::agents::ledger::now(),
                by: writer.name.clone(),
                session: writer.session.clone(),
                head: writer.head.clone(),
                cmd: change.cmd,
                ops,
                size: None,
                hash: None,
            };
            let estimate = serde_json::to_vec(&entry).map_or(0, |l| l.len() as u64 + 64);
            let due = segment_bytes + estimate >= document_size.max(MIN_SEGMENT_BYTES);
            let last = i + 1 == count;
            let mut bytes = Vec::new();
            if due || last {
                bytes = document_bytes(&doc);
                document_size = bytes.len() as u64;
            }
            // Only a write's last line records the document: lines after the last such line
            // are a write cut short (see `recover`).
            if last {
                entry.size = Some(document_size);
                entry.hash = Some(journal::hash(&bytes));
            }
            let mut line = serde_json::to_vec(&entry).context("cannot encode the journal entry")?;
            line.push(b'\n');
            segment_bytes += line.len() as u64;
            lines.extend_from_slice(&line);
            if last {
                final_bytes = bytes.clone();
            }
            if due {
                splits.push(Split {
                    version,
                    bytes,
                    from: lines.len(),
                });
                segment_bytes = 0;
            }
        }
        if count == 0 {
            return Ok(Written {
                versions: 0,
                last: version,
                doc,
            });
        }
        self.check_size(final_bytes.len() as u64, old_size)?;
        if !self.dir.is_dir() {
            std::fs::create_dir_all(&self.dir).map_err(|e| Error::io(&self.dir, e))?;
        }
        fsx::append_durable(&head_path, &lines).map_err(|e| Error::io(&head_path, e))?;
        // Committed. Atomic, not synced: the journal (synced) is the durable record; a document
        // a power cut leaves old or empty no longer matches the journal's hash and is rebuilt.
        if let Err(e) = fsx::write_atomic(&self.document, &final_bytes, 0o644, fsx::Durability::Ephemeral) {
            let removed = fsx::remove_if_exists(&self.document).is_ok();
            notes.push(format!(
                "version {version} is saved in the journal, but {} could not be replaced ({e}){}",
                self.document.display(),
                if removed {
                    "; until it can be, commands rebuild it from the journal"
                } else {
                    ""
                }
            ));
            if !removed {
                return Ok(Written {
                    versions: version - before,
                    last: version,
                    doc,
                });
            }
        }
        self.take_snapshots(&lines, &splits, notes);
        Ok(Written {
            versions: version - before,
            last: version,
            doc,
        })
    }

    /// Refuses a document of `size` bytes past the cap, unless it is no larger than the one
    /// there (a store an older version let grow can still be trimmed).
    fn check_size(&self, size: u64, old_size: u64) -> Result<()> {
        if size <= MAX_DOCUMENT_BYTES || size <= old_size {
            return Ok(());
        }
        let mib = |bytes: u64| bytes as f64 / (1024.0 * 1024.0);
        Err(Error::Failed(format!(
            "this would make {} {:.1} MiB, past the context store's {:.0} MiB cap, so nothing was written. \
             Keep large data in files and record their paths (`baton ctx output AGENT ARTIFACT --file PATH`), \
             or delete what is no longer needed (`baton ctx delete PATH`)",
            self.document.display(),
            mib(size),
            mib(MAX_DOCUMENT_BYTES)
        )))
    }

    /// Writes the snapshots `splits` name, newest first, each after its segment: a kill
    /// between the two leaves a segment without its snapshot, which readers leave out.
    fn take_snapshots(&self, lines: &[u8], splits: &[Split], notes: &mut Vec<String>) {
        for (i, split) in splits.iter().enumerate().rev() {
            let end = splits.get(i + 1).map_or(lines.len(), |next| next.from);
            let segment = journal::segment_path(&self.dir, split.version);
            let snapshot = journal::snapshot_path(&self.dir, split.version);
            let written = match &lines[split.from..end] {
                [] => Ok(()),
                after => fsx::write_atomic(&segment, after, 0o644, fsx::Durability::Durable),
            }
            .and_then(|()| fsx::write_atomic(&snapshot, &split.bytes, 0o644, fsx::Durability::Durable));
            if let Err(e) = written {
                notes.push(format!(
                    "could not write the snapshot of version {} ({e}); a later write takes one",
                    split.version
                ));
                return;
            }
        }
    }
}

/// Why `op` may not be written: it would nest the document deeper than [`MAX_DEPTH`], which
/// every reader of the document, its snapshots and its journal lines reads back.
pub fn check_depth(op: &Op) -> std::result::Result<(), TooDeep> {
    let Op::Set { path, value } = op else {
        return Ok(());
    };
    let keys = DocPath::parse(path).map_or(0, |p| p.tokens().len());
    let depth = keys + document::nesting(value);
    if depth <= MAX_DEPTH {
        return Ok(());
    }
    Err(TooDeep { depth })
}

/// A write that would nest the document deeper than [`MAX_DEPTH`].
#[derive(Debug, thiserror::Error)]
#[error(
    "the document would nest {depth} levels deep there, more than the {MAX_DEPTH} the store keeps (JSON readers \
     stop at 128); nothing was written. Flatten the value, or use a shorter path"
)]
pub struct TooDeep {
    depth: usize,
}

/// The error when the newest version is the largest number there is.
fn no_version_after(version: u64) -> Error {
    Error::Failed(format!(
        "the journal's newest version is {version}, and no version number follows it: the journal was edited \
         by hand; run `baton ctx validate`"
    ))
}
