//! Writing versions. Under the store's lock: the change is applied to the current document,
//! `context_version` advances, the journal line is appended and made durable (one fdatasync),
//! and only then is the document replaced atomically. After the line that makes the changes since the last
//! snapshot as large as the document, the document is also kept as a snapshot and a new
//! segment begins. A batch writes many versions with one append and one document write.

use std::path::Path;
use std::time::Duration;

use serde_json::Value;

use super::journal::{self, Entry, Layout};
use super::ops::Op;
use super::{Store, Versioned, document, document_bytes};
use crate::error::{Error, Result};
use crate::fsx;

/// How long a command waits for another writer.
pub const LOCK_WAIT: Duration = Duration::from_secs(10);
/// A segment is closed by a snapshot once it holds this much, or the document's size if larger:
/// a long history of a small document stays a few files per MiB of journal, each replayed in
/// well under a millisecond.
pub const MIN_SEGMENT_BYTES: u64 = 256 * 1024;
/// Environment variable naming the writer when `--as` is not given.
pub const WRITER_ENV: &str = "BATON_AGENT";

/// Who writes: recorded in every journal entry.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Writer {
    pub name: String,
    pub session: Option<String>,
    pub head: Option<String>,
}

impl Writer {
    /// `--as NAME`, else `$BATON_AGENT`, else `unknown`; Claude Code's session from
    /// `$CLAUDE_CODE_SESSION_ID` (a subagent's Bash sees its parent's: no agent id is given to
    /// it); the git HEAD of `root`.
    pub fn identify(as_name: Option<&str>, root: &Path) -> Result<Self> {
        let from_env = std::env::var(WRITER_ENV).ok().filter(|n| !n.trim().is_empty());
        let name = as_name
            .map(str::to_owned)
            .or(from_env)
            .unwrap_or_else(|| "unknown".into());
        if name.chars().count() > 128 || name.chars().any(char::is_control) || name.trim().is_empty() {
            return Err(Error::Usage(format!(
                "writer name {name:?} is not usable: give a short name such as `--as pm`"
            )));
        }
        Ok(Self {
            name,
            session: std::env::var("CLAUDE_CODE_SESSION_ID").ok().filter(|s| !s.is_empty()),
            head: head_of(root),
        })
    }

    /// A writer acting for a hook: the agent type, and the payload's session.
    pub fn hook(name: &str, session: Option<&str>, root: &Path) -> Self {
        Self {
            name: name.to_owned(),
            session: session.map(str::to_owned),
            head: head_of(root),
        }
    }
}

/// The git HEAD of `root`; git is not started outside a work tree.
fn head_of(root: &Path) -> Option<String> {
    root.ancestors()
        .any(|dir| dir.join(".git").exists())
        .then(|| crate::git::head(root))
        .flatten()
}

/// One version to write: the command and its changes.
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    pub cmd: String,
    pub ops: Vec<Op>,
}

/// What a write did.
#[derive(Debug, Clone, PartialEq)]
pub struct Written {
    /// The first and last version written.
    pub first: u64,
    pub last: u64,
    /// Snapshots taken.
    pub snapshots: Vec<u64>,
}

impl Store {
    /// Writes one version whose changes `make` computes from the current document (nothing
    /// when it computes none).
    pub fn write(
        &self,
        writer: &Writer,
        wait: Duration,
        notes: &mut Vec<String>,
        make: impl FnOnce(&Versioned) -> Result<Change>,
    ) -> Result<Written> {
        let _lock = self.lock(wait)?;
        let (current, layout) = self.load_locked(notes)?;
        let change = make(&current)?;
        if change.ops.is_empty() {
            let version = current.version;
            return Ok(Written {
                first: version + 1,
                last: version,
                snapshots: Vec::new(),
            });
        }
        self.commit(writer, current, &layout, vec![change])
    }

    /// Starts the store with `doc` as version 1; refuses when one exists.
    pub fn create(&self, writer: &Writer, doc: Value) -> Result<Written> {
        let _lock = self.lock(LOCK_WAIT)?;
        if self.exists() {
            return Err(Error::Failed(format!(
                "a context store already exists in {}: `baton ctx show` shows it; to start over, remove \
                 .baton/context.json and .baton/context/",
                self.root().display()
            )));
        }
        if let Some(dir) = self.document.parent() {
            std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
        }
        let start = Versioned {
            doc: Value::Null,
            version: 0,
        };
        let change = Change {
            cmd: "init".into(),
            ops: vec![Op::set(&super::path::DocPath::root(), doc)],
        };
        self.commit(writer, start, &Layout::default(), vec![change])
    }

    /// Writes each change as its own version, in one append and one document write.
    pub fn write_batch(&self, writer: &Writer, notes: &mut Vec<String>, changes: Vec<Change>) -> Result<Written> {
        let _lock = self.lock(LOCK_WAIT)?;
        let (current, layout) = self.load_locked(notes)?;
        self.commit(writer, current, &layout, changes)
    }

    /// Applies `changes` to `current` and writes them (the lock is held). Every change is
    /// applied before anything is written: a change that does not apply writes nothing.
    pub(super) fn commit(
        &self,
        writer: &Writer,
        current: Versioned,
        layout: &Layout,
        changes: Vec<Change>,
    ) -> Result<Written> {
        let Versioned { mut doc, mut version } = current;
        let first = version + 1;
        let mut base = layout.head_base();
        let head_path = journal::segment_path(&self.dir, base);
        let mut segment_bytes = std::fs::metadata(&head_path).map_or(0, |m| m.len());
        let mut document_size = std::fs::metadata(&self.document).map_or(0, |m| m.len());
        let mut plan: Vec<Step> = Vec::new();
        let mut final_bytes = Vec::new();
        let count = changes.len();
        for (i, change) in changes.into_iter().enumerate() {
            let mut ops = change.ops;
            for op in &ops {
                op.apply(&mut doc)
                    .map_err(|e| Error::Failed(format!("cannot {}: {e}", change.cmd)))?;
            }
            version += 1;
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
                entry.size = Some(document_size);
                entry.hash = Some(journal::hash(&bytes));
            }
            let mut line = serde_json::to_vec(&entry)
                .map_err(|e| Error::Failed(format!("cannot encode the journal entry: {e}")))?;
            line.push(b'\n');
            segment_bytes += line.len() as u64;
            plan.push(Step::Line { base, line });
            if due {
                plan.push(Step::Snapshot {
                    version,
                    bytes: bytes.clone(),
                });
                base = version;
                segment_bytes = 0;
            }
            if last {
                final_bytes = bytes;
            }
        }
        if count == 0 {
            return Ok(Written {
                first,
                last: version,
                snapshots: Vec::new(),
            });
        }
        let snapshots = self.carry_out(plan)?;
        // Atomic, not synced: the journal (synced above) is the durable record. A document
        // that a power cut leaves old or empty no longer matches the journal's hash, and the
        // next reader rebuilds it from the journal.
        fsx::write_atomic(&self.document, &final_bytes, 0o644, fsx::Durability::Ephemeral)
            .map_err(|e| Error::io(&self.document, e))?;
        Ok(Written {
            first,
            last: version,
            snapshots,
        })
    }

    /// Appends the lines (one durable append per segment) and writes the snapshots, in order.
    fn carry_out(&self, plan: Vec<Step>) -> Result<Vec<u64>> {
        std::fs::create_dir_all(&self.dir).map_err(|e| Error::io(&self.dir, e))?;
        let mut snapshots = Vec::new();
        let mut pending: Option<(u64, Vec<u8>)> = None;
        let flush = |pending: &mut Option<(u64, Vec<u8>)>| -> Result<()> {
            if let Some((base, lines)) = pending.take() {
                let path = journal::segment_path(&self.dir, base);
                fsx::append_durable(&path, &lines).map_err(|e| Error::io(&path, e))?;
            }
            Ok(())
        };
        for step in plan {
            match step {
                Step::Line { base, line } => match &mut pending {
                    Some((b, lines)) if *b == base => lines.extend_from_slice(&line),
                    _ => {
                        flush(&mut pending)?;
                        pending = Some((base, line));
                    }
                },
                Step::Snapshot { version, bytes } => {
                    flush(&mut pending)?;
                    let path = journal::snapshot_path(&self.dir, version);
                    fsx::write_atomic(&path, &bytes, 0o644, fsx::Durability::Durable)
                        .map_err(|e| Error::io(&path, e))?;
                    // The document follows each snapshot, so a batch cut short leaves it behind
                    // by no more than the newest segment (see `recover`).
                    fsx::write_atomic(&self.document, &bytes, 0o644, fsx::Durability::Ephemeral)
                        .map_err(|e| Error::io(&self.document, e))?;
                    snapshots.push(version);
                }
            }
        }
        flush(&mut pending)?;
        Ok(snapshots)
    }
}

enum Step {
    Line { base: u64, line: Vec<u8> },
    Snapshot { version: u64, bytes: Vec<u8> },
}

/// Moves `context_version` on by one step, unless the change set it (or the whole document)
/// or changes nothing (a recovery record).
fn advance_context_version(doc: &mut Value, ops: &mut Vec<Op>, version: u64) {
    if ops.is_empty() || ops.iter().any(|op| matches!(op.pointer(), "" | "/context_version")) || !doc.is_object() {
        return;
    }
    if let Some(next) = document::advance_version(doc.get("context_version"), version) {
        let op = Op::Set {
            path: "/context_version".into(),
            value: next.clone(),
        };
        doc["context_version"] = next;
        ops.push(op);
    }
}
