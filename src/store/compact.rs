//! `compact --keep N`: drops history older than the newest N versions. The version just
//! before them becomes the oldest: its segment (a copy of the lines after it) is written
//! first, then its snapshot, which is what makes the new segment part of the store (see
//! `journal::Layout`); only then are older files removed, oldest first and each snapshot
//! before its segment. A kill anywhere leaves a store whose every version from its oldest on
//! can be rebuilt (segments that overlap, or one without its snapshot, which readers skip).

use super::journal::{self, Layout};
use super::write::LOCK_WAIT;
use super::{Store, document_bytes};
use crate::error::{Error, Result};
use crate::fsx;

/// What a compaction did.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Compacted {
    /// The oldest version before and after.
    pub oldest_before: u64,
    pub oldest_after: u64,
    pub newest: u64,
    /// Bytes of `.baton/context/` before and after.
    pub bytes_before: u64,
    pub bytes_after: u64,
}

impl Store {
    /// Keeps the newest `keep` versions (and the one before them, as a snapshot).
    pub fn compact(&self, keep: u64, notes: &mut Vec<String>) -> Result<Compacted> {
        let _lock = self.lock(LOCK_WAIT)?;
        let (current, layout) = self.load_locked(notes)?;
        let bytes_before = self.dir_bytes();
        let newest = current.version;
        let oldest_before = layout.oldest();
        let new_base = newest.saturating_sub(keep);
        let lowest_base = match layout.journals.first() {
            Some(0) => 0,
            _ => layout.snapshots.first().copied().unwrap_or(0),
        };
        if new_base <= lowest_base {
            return Ok(Compacted {
                oldest_before,
                oldest_after: oldest_before,
                newest,
                bytes_before,
                bytes_after: bytes_before,
            });
        }
        if !layout.snapshots.contains(&new_base) {
            if new_base < newest {
                self.write_kept_segment(&layout, new_base)?;
            }
            self.write_snapshot(&layout, new_base)?;
        }
        let mut old: Vec<u64> = layout.journals.iter().chain(&layout.snapshots).copied().collect();
        old.retain(|base| *base < new_base);
        old.sort_unstable();
        old.dedup();
        for base in old {
            let snapshot = (base > 0).then(|| journal::snapshot_path(&self.dir, base));
            for path in snapshot.into_iter().chain([journal::segment_path(&self.dir, base)]) {
                fsx::remove_if_exists(&path).map_err(|e| Error::io(&path, e))?;
            }
        }
        for base in layout.unfinished.iter().filter(|b| **b != new_base) {
            let path = journal::segment_path(&self.dir, *base);
            fsx::remove_if_exists(&path).map_err(|e| Error::io(&path, e))?;
        }
        fsx::sync_dir(&journal::segment_path(&self.dir, new_base));
        Ok(Compacted {
            oldest_before,
            oldest_after: self.layout()?.oldest(),
            newest,
            bytes_before,
            bytes_after: self.dir_bytes(),
        })
    }

    /// Writes `snapshot-<version>.json`, checked against the hash its entry recorded.
    fn write_snapshot(&self, layout: &Layout, version: u64) -> Result<()> {
        let mut recorded = None;
        let doc = self.replay(layout, version, &mut |entry| {
            if entry.v == version {
                recorded = entry.hash.clone();
            }
        })?;
        let bytes = document_bytes(&doc);
        if recorded.is_some_and(|h| h != journal::hash(&bytes)) {
            return Err(Error::invalid(
                &self.dir,
                format!(
                    "replaying the journal does not give version {version} as recorded; nothing was compacted; run `baton ctx validate`"
                ),
            ));
        }
        let path = journal::snapshot_path(&self.dir, version);
        fsx::write_atomic(&path, &bytes, 0o644, fsx::Durability::Durable).map_err(|e| Error::io(&path, e))
    }

    /// Writes `journal-<base>.jsonl` with the lines after `base` of the segment holding them
    /// (copied byte for byte).
    fn write_kept_segment(&self, layout: &Layout, base: u64) -> Result<()> {
        let from = journal::segment_path(&self.dir, layout.base_for(base));
        let mut kept = Vec::new();
        journal::read_lines(&from, |_, line, number| {
            let entry = journal::parse(line).map_err(|e| journal::damaged(&from, number, &e))?;
            if entry.v > base {
                kept.extend_from_slice(line);
            }
            Ok(true)
        })
        .map_err(|e| Error::io(&from, e))?;
        let path = journal::segment_path(&self.dir, base);
        fsx::write_atomic(&path, &kept, 0o644, fsx::Durability::Durable).map_err(|e| Error::io(&path, e))
    }

    /// Total size of the files in `.baton/context/`.
    pub fn dir_bytes(&self) -> u64 {
        let Ok(entries) = std::fs::read_dir(&self.dir) else {
            return 0;
        };
        entries
            .flatten()
            .filter_map(|e| e.metadata().ok())
            .map(|m| m.len())
            .sum()
    }
}
