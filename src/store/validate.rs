//! `validate`: the document against the journal and against the proposal's shape. Every
//! segment is replayed from its snapshot, versions must follow each other without gaps, each
//! replay must give the next snapshot and, at the end, the document byte for byte (as the
//! hashes the journal recorded say); the document must have the proposal's shape, every
//! reference in it must resolve, and `context_version` must be able to advance.

use std::path::PathBuf;

use serde::Serialize;
use serde_json::Value;

use super::journal::{self, Entry};
use super::path::{DocPath, PathError};
use super::write::LOCK_WAIT;
use super::{Store, document, document_bytes, reference};
use crate::error::{Error, Result};

/// What validation found.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Report {
    pub version: u64,
    pub oldest: u64,
    pub segments: usize,
    pub snapshots: usize,
    pub entries: u64,
    pub problems: Vec<String>,
}

impl Store {
    /// Validates the store (repairing first what loading repairs, as `notes` say).
    pub fn validate(&self, notes: &mut Vec<String>) -> Result<Report> {
        let _lock = self.lock(LOCK_WAIT)?;
        let (current, layout) = self.load_locked(notes)?;
        let mut report = Report {
            version: current.version,
            oldest: layout.oldest(),
            segments: layout.journals.len(),
            snapshots: layout.snapshots.len(),
            ..Report::default()
        };
        let mut last_seen: Option<Entry> = None;
        for (i, base) in layout.journals.iter().enumerate() {
            let next_base = layout.journals.get(i + 1).copied();
            if let Err(problem) = self.check_segment(*base, next_base, &mut last_seen, &mut report) {
                report.problems.push(problem.to_string());
            }
        }
        for base in &layout.snapshots {
            if !layout.journals.contains(base) && *base != layout.head_base() {
                report.problems.push(format!(
                    "{} has no journal segment after it",
                    journal::snapshot_path(&self.dir, *base).display()
                ));
            }
        }
        let document = document_bytes(&current.doc);
        match &last_seen {
            Some(last) if last.v != current.version => report.problems.push(format!(
                "the journal ends at version {} but the document is version {}",
                last.v, current.version
            )),
            Some(last) if last.hash.as_deref() != Some(&journal::hash(&document)) => report.problems.push(format!(
                "the document is not what the journal's version {} recorded",
                last.v
            )),
            _ => {}
        }
        report.problems.extend(document::shape_problems(&current.doc));
        report.problems.extend(reference_problems(&current.doc));
        if current.doc.is_object() && document::advance_version(current.doc.get("context_version"), 0).is_none() {
            report.problems.push(format!(
                "context_version {} cannot advance: make it a number or a dotted version such as \"1.0.2\"",
                current.doc["context_version"]
            ));
        }
        Ok(report)
    }

    /// Replays one segment from its snapshot; checks continuity and the hash where the next
    /// snapshot begins (and at the very end, against the newest recorded hash).
    fn check_segment(
        &self,
        base: u64,
        next_base: Option<u64>,
        last_seen: &mut Option<Entry>,
        report: &mut Report,
    ) -> Result<(), SegmentProblem> {
        let path = journal::segment_path(&self.dir, base);
        if let Some(seen) = last_seen.as_ref().filter(|e| e.v < base) {
            return Err(SegmentProblem::VersionsMissing {
                from: seen.v + 1,
                to: base,
            });
        }
        let mut doc = if base == 0 {
            Value::Null
        } else {
            let snapshot = self.read_snapshot(base).map_err(SegmentProblem::Unreadable)?;
            if let Some(seen) = last_seen.as_ref().filter(|e| e.v == base)
                && seen
                    .hash
                    .as_deref()
                    .is_some_and(|h| h != journal::hash(&document_bytes(&snapshot)))
            {
                return Err(SegmentProblem::SnapshotDiffers { base });
            }
            snapshot
        };
        let mut expected = base + 1;
        let mut problem = None;
        let mut last: Option<Entry> = None;
        journal::read_segment(&path, |entry| {
            if entry.v < expected && next_base.is_some_and(|n| entry.v <= n) {
                return Ok(true); // overlap from an interrupted compaction
            }
            if entry.v != expected {
                problem = Some(SegmentProblem::VersionMissing {
                    path: path.clone(),
                    expected,
                    found: entry.v,
                });
                return Ok(false);
            }
            for op in &entry.ops {
                if let Err(source) = op.apply(&mut doc) {
                    problem = Some(SegmentProblem::DoesNotApply {
                        path: path.clone(),
                        version: entry.v,
                        source,
                    });
                    return Ok(false);
                }
            }
            expected += 1;
            report.entries += 1;
            last = Some(entry);
            Ok(true)
        })
        .map_err(SegmentProblem::SegmentUnreadable)?;
        if let Some(problem) = problem {
            return Err(problem);
        }
        if let Some(last) = &last {
            // A write records the document at its end; a batch's snapshot before its end is
            // checked against the replay instead.
            let recorded = match &last.hash {
                Some(hash) => Some(hash.clone()),
                None => self
                    .read_snapshot(last.v)
                    .ok()
                    .map(|s| journal::hash(&document_bytes(&s))),
            };
            if recorded.is_some_and(|h| h != journal::hash(&document_bytes(&doc))) {
                return Err(SegmentProblem::ReplayDiffers { path, version: last.v });
            }
        }
        if let Some(prev) = last_seen.as_ref()
            && last.as_ref().is_some_and(|l| l.v <= prev.v)
        {
            return Ok(()); // a segment wholly inside the one before (interrupted compaction)
        }
        if last.is_some() {
            *last_seen = last;
        }
        Ok(())
    }
}

/// What is wrong with one journal segment, as `validate` reports it.
#[derive(Debug, thiserror::Error)]
enum SegmentProblem {
    #[error("versions {from} to {to} are missing from the journal")]
    VersionsMissing { from: u64, to: u64 },
    #[error("snapshot {base} is not the version {base} the journal recorded")]
    SnapshotDiffers { base: u64 },
    #[error("{0}")]
    Unreadable(#[source] Error),
    #[error("{0}")]
    SegmentUnreadable(#[source] std::io::Error),
    #[error("{}: version {expected} is missing (found {found})", path.display())]
    VersionMissing { path: PathBuf, expected: u64, found: u64 },
    #[error("{}: version {version} does not apply: {source}", path.display())]
    DoesNotApply {
        path: PathBuf,
        version: u64,
        source: PathError,
    },
    #[error("{}: replaying up to version {version} does not give what it recorded", path.display())]
    ReplayDiffers { path: PathBuf, version: u64 },
}

/// Every reference that does not resolve (dangling, cyclic, malformed, too large), once each;
/// checked without building what they resolve to, each target once.
fn reference_problems(doc: &Value) -> Vec<String> {
    let mut found = Vec::new();
    reference::references_in(doc, &DocPath::root(), &mut found);
    let mut problems: Vec<String> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut checker = reference::Checker::new(doc);
    for (at, _) in found {
        if let Err(e) = checker.check(&at) {
            let text = e.to_string();
            if seen.insert(text.clone()) {
                problems.push(text);
            }
        }
    }
    problems
}
