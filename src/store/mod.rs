//! The context store (`baton ctx`): one shared, versioned JSON document per project that an
//! orchestrator and its agents read and write, in the shape of BMAD's context-manager
//! proposal. `.baton/context.json` is the current document; `.baton/context/` holds the
//! journal of changes in segments, each following a snapshot (see [`journal`]). Reading the
//! current document reads that one file; reading version V replays the changes since the
//! newest snapshot at or before V; a snapshot is taken when the changes since the last one
//! add up to the document's size, so replaying never costs more than reading the document
//! twice, and the files grow with the changes, not with the document.

pub mod commit;
pub mod compact;
pub mod document;
pub mod hook;
pub mod journal;
pub mod ops;
pub mod path;
pub mod recover;
pub mod reference;
pub mod transform;
pub mod validate;
pub mod workflow;
pub mod write;

use std::path::PathBuf;
use std::time::Duration;

use serde_json::Value;

use crate::error::{Error, Result};
use crate::fsx;
use crate::planning::Project;
use journal::{Entry, Layout};

/// Largest document the store grows to: a write that would make `context.json` larger is
/// refused. Every hook reads the document, and a write rewrites it, so this bounds what they
/// cost.
pub const MAX_DOCUMENT_BYTES: u64 = 16 * 1024 * 1024;
/// Largest document, snapshot or journal line baton reads (a store an older version let grow
/// past [`MAX_DOCUMENT_BYTES`] stays readable, so it can be trimmed).
pub const MAX_READ_BYTES: u64 = 1024 * 1024 * 1024;

/// A project's context store.
#[derive(Debug, Clone)]
pub struct Store {
    /// `<root>/.baton/context.json`: the current document.
    pub document: PathBuf,
    /// `<root>/.baton/context/`: journal segments and snapshots.
    pub dir: PathBuf,
    /// `<root>/.baton/context.lock`: the lock every writer takes. It belongs to the store (the
    /// same file whatever `$TMPDIR` is and however the project's path is spelt) and is never
    /// removed.
    pub lock_file: PathBuf,
    root: PathBuf,
}

/// A document and the version it is.
#[derive(Debug, Clone)]
pub struct Versioned {
    pub doc: Value,
    pub version: u64,
}

impl Store {
    /// The store of `project` (it may not exist yet).
    pub fn of(project: &Project) -> Self {
        Self {
            document: project.root.join(".baton").join("context.json"),
            dir: project.root.join(".baton").join("context"),
            lock_file: project.root.join(".baton").join("context.lock"),
            root: project.root.clone(),
        }
    }

    /// The project's root directory.
    pub fn root(&self) -> &std::path::Path {
        &self.root
    }

    /// Whether there is a document or a journal.
    pub fn exists(&self) -> bool {
        self.document.exists() || self.dir.is_dir()
    }

    /// The error for a project without a store.
    pub fn missing(&self) -> Error {
        Error::Failed(format!(
            "no context store in {}: run `baton ctx init` to start one (or `baton ctx init --from FILE`)",
            self.root.display()
        ))
    }

    /// Takes the store's lock (waiting at most `wait`). Every write and repair holds it, so
    /// this is where the project's rule for links (`planning::files`) is applied: a linked
    /// `.baton/`, `context.json`, `context/` or `context.lock` is refused before anything is
    /// written.
    pub fn lock(&self, wait: Duration) -> Result<fsx::LockGuard> {
        let project = Project {
            root: self.root.clone(),
        };
        for path in [&self.document, &self.dir, &self.lock_file] {
            project.check_writable(path)?;
        }
        if let Some(dir) = self.lock_file.parent().filter(|d| !d.is_dir()) {
            project.create_dir(dir)?;
        }
        fsx::lock_exclusive(&self.lock_file, wait).map_err(|source| Error::Lock {
            what: "the context store".into(),
            path: self.lock_file.clone(),
            wait,
            source,
        })
    }

    /// The journal's segments and snapshots. A segment left without its snapshot (by a kill
    /// in a compaction or a batch) holds copies of lines the store has: it is left out. One
    /// that holds newer versions than the store is damage (its snapshot was removed), said as
    /// such.
    pub fn layout(&self) -> Result<Layout> {
        let layout = Layout::read(&self.dir).map_err(|e| Error::io(&self.dir, e))?;
        if layout.unfinished.is_empty() {
            return Ok(layout);
        }
        let newest = self.last_entry(&layout)?.map_or(0, |e| e.v);
        for base in &layout.unfinished {
            let path = journal::segment_path(&self.dir, *base);
            let tail = journal::tail(&path, 1).map_err(|e| Error::io(&path, e))?;
            let holds = tail
                .lines
                .last()
                .and_then(|l| journal::parse(l).ok())
                .map_or(0, |e| e.v);
            if holds > newest {
                return Err(Error::invalid(
                    &journal::snapshot_path(&self.dir, *base),
                    format!(
                        "is missing, and {} holds versions up to {holds} after it, which cannot be rebuilt without it: \
                         put the snapshot back, or remove that segment to go back to version {newest}",
                        path.display()
                    ),
                ));
            }
        }
        Ok(layout)
    }

    /// The newest complete entry, looking back through the segments.
    pub fn last_entry(&self, layout: &Layout) -> Result<Option<Entry>> {
        for base in layout.journals.iter().rev() {
            let path = journal::segment_path(&self.dir, *base);
            let tail = journal::tail(&path, 1).map_err(|e| Error::io(&path, e))?;
            if let Some(line) = tail.lines.last() {
                let entry = journal::parse(line).map_err(|e| {
                    Error::invalid(
                        &path,
                        format!("its last complete line is damaged ({e}); run `baton ctx validate`"),
                    )
                    .caused_by(e)
                })?;
                return Ok(Some(entry));
            }
        }
        Ok(None)
    }

    /// The document at `version`, rebuilt from the newest snapshot at or before it and the
    /// changes after that snapshot.
    pub fn version_at(&self, version: u64) -> Result<Value> {
        let layout = self.layout()?;
        let newest = self.last_entry(&layout)?.map_or(0, |e| e.v);
        if version == 0 || version > newest {
            return Err(Error::Usage(format!(
                "there is no version {version}: the store has versions {} to {newest}",
                layout.oldest()
            )));
        }
        if version < layout.oldest() {
            return Err(Error::Failed(format!(
                "version {version} was compacted away: history starts at version {} (`baton ctx log`)",
                layout.oldest()
            )));
        }
        self.replay(&layout, version, &mut |_| {})
    }

    /// Rebuilds `version` from its base; `each` sees every entry replayed.
    pub fn replay(&self, layout: &Layout, version: u64, each: &mut dyn FnMut(&Entry)) -> Result<Value> {
        let base = layout.base_for(version);
        let mut doc = if base == 0 {
            Value::Null
        } else {
            self.read_snapshot(base)?
        };
        if version == base {
            return Ok(doc);
        }
        let path = journal::segment_path(&self.dir, base);
        if !layout.journals.contains(&base) {
            return Err(Error::invalid(
                &path,
                format!("is missing, so version {version} cannot be rebuilt; run `baton ctx validate`"),
            ));
        }
        let mut expected = base + 1;
        let mut failure: Option<Error> = None;
        journal::read_segment(&path, |entry| {
            if entry.v < expected {
                return Ok(true); // an overlap left by an interrupted compaction
            }
            if entry.v != expected {
                failure = Some(Error::invalid(
                    &path,
                    format!("version {expected} is missing (the next line is version {})", entry.v),
                ));
                return Ok(false);
            }
            for op in &entry.ops {
                if let Err(e) = op.apply(&mut doc) {
                    failure =
                        Some(Error::invalid(&path, format!("version {} does not apply: {e}", entry.v)).caused_by(e));
                    return Ok(false);
                }
            }
            each(&entry);
            expected += 1;
            Ok(expected <= version)
        })
        .map_err(|e| Error::io(&path, e))?;
        if let Some(e) = failure {
            return Err(e);
        }
        if expected <= version {
            return Err(Error::invalid(
                &path,
                format!("ends at version {} before version {version}", expected - 1),
            ));
        }
        Ok(doc)
    }

    /// Reads snapshot `base`.
    pub fn read_snapshot(&self, base: u64) -> Result<Value> {
        let path = journal::snapshot_path(&self.dir, base);
        let bytes = fsx::read_regular(&path, MAX_READ_BYTES).map_err(|e| Error::io(&path, e))?;
        serde_json::from_slice(&bytes)
            .map_err(|e| Error::invalid(&path, format!("snapshot is damaged ({e})")).caused_by(e))
    }

    /// The newest `limit` entries (all with `None`), oldest first, and the version history
    /// starts at. Reads segments from the newest back, each from its end.
    pub fn log(&self, limit: Option<usize>) -> Result<(Vec<Entry>, u64)> {
        let layout = self.layout()?;
        let mut newest_first: Vec<Entry> = Vec::new();
        let mut floor = u64::MAX;
        for base in layout.journals.iter().rev() {
            let path = journal::segment_path(&self.dir, *base);
            let want = limit.map_or(usize::MAX, |l| l.saturating_sub(newest_first.len()));
            if want == 0 {
                break;
            }
            let mut entries = Vec::new();
            if want == usize::MAX {
                journal::read_segment(&path, |e| {
                    entries.push(e);
                    Ok(true)
                })
                .map_err(|e| Error::io(&path, e))?;
            } else {
                let tail = journal::tail(&path, want).map_err(|e| Error::io(&path, e))?;
                for line in &tail.lines {
                    entries.push(journal::parse(line).map_err(|e| {
                        Error::invalid(
                            &path,
                            format!("a line near its end is damaged ({e}); run `baton ctx validate`"),
                        )
                        .caused_by(e)
                    })?);
                }
            }
            // Segments overlap only after an interrupted compaction: keep each version once.
            for entry in entries.into_iter().rev() {
                if entry.v < floor {
                    floor = entry.v;
                    newest_first.push(entry);
                }
            }
        }
        newest_first.reverse();
        Ok((newest_first, layout.oldest()))
    }
}

/// The document file's text: pretty JSON and a newline (what the journal's hash is taken of).
pub fn document_bytes(doc: &Value) -> Vec<u8> {
    let mut bytes = serde_json::to_vec_pretty(doc).unwrap_or_default();
    bytes.push(b'\n');
    bytes
}
