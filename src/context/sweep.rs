//! Removes baton's own stale temp files (`claude-ctx-*`, project locks and caches) from the temp dir
//! (GSD never deletes its files; users found hundreds). Runs at most once an hour, gated by a stamp file.

use std::fs;
use std::os::unix::fs::MetadataExt;
use std::path::Path;
use std::time::Duration;

use crate::context::bridge::GENERATOR;
use crate::fsx;

/// Files untouched for this long are stale.
const STALE_AFTER_SECS: u64 = 24 * 60 * 60;
/// The sweep runs at most this often.
const SWEEP_EVERY_SECS: u64 = 60 * 60;
/// A directory scan stops after this many entries, so a huge temp dir costs a bounded time.
const MAX_ENTRIES: usize = 20_000;

/// Sweeps the temp dir when the last sweep is over an hour old; errors are ignored.
pub fn sweep_if_due(now: u64) {
    let dir = fsx::temp_dir();
    // SAFETY: geteuid has no preconditions and cannot fail.
    let uid = unsafe { libc::geteuid() };
    let stamp = dir.join(format!("baton-sweep-{uid}.stamp"));
    let last = fs::symlink_metadata(&stamp).ok().map(|m| m.mtime().max(0) as u64);
    if last.is_some_and(|t| now.saturating_sub(t) < SWEEP_EVERY_SECS) {
        return;
    }
    // Claim the sweep first so parallel hooks don't all scan.
    if fsx::write_atomic(&stamp, b"", 0o600, fsx::Durability::Ephemeral).is_err() {
        return;
    }
    sweep(&dir, now, uid);
}

/// Removes files in `dir` named `claude-ctx-*` or `baton-*`, owned by `uid`, older than a
/// day, that baton wrote: its lock files, and bridge, debounce and cache files that carry its
/// generator mark.
pub fn sweep(dir: &Path, now: u64, uid: u32) -> usize {
    let Ok(entries) = fs::read_dir(dir) else {
        return 0;
    };
    let mut removed = 0;
    for entry in entries.take(MAX_ENTRIES).flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        let ours = ["claude-ctx-", fsx::PROJECT_LOCK_PREFIX, fsx::PROJECT_CACHE_PREFIX];
        if !ours.iter().any(|prefix| name.starts_with(prefix)) {
            continue;
        }
        let path = entry.path();
        let Ok(meta) = fs::symlink_metadata(&path) else {
            continue;
        };
        if !meta.is_file() || meta.uid() != uid || now.saturating_sub(meta.mtime().max(0) as u64) < STALE_AFTER_SECS {
            continue;
        }
        if !is_batons(&path, name) {
            continue;
        }
        // A lock file may be old and still held (a hook waiting on a long operation):
        // removing it then would let the next taker lock a new file beside the holder.
        let _held = if is_lock(name) {
            match fsx::lock_exclusive(&path, Duration::ZERO) {
                Ok(guard) => Some(guard),
                Err(_) => continue,
            }
        } else {
            None
        };
        if fs::remove_file(&path).is_ok() {
            removed += 1;
        }
    }
    removed
}

/// baton's lock files: the debounce locks and the project locks.
fn is_lock(name: &str) -> bool {
    name.ends_with("-warned.lock") || name.starts_with(fsx::PROJECT_LOCK_PREFIX)
}

fn is_batons(path: &Path, name: &str) -> bool {
    if is_lock(name) {
        return true;
    }
    if !name.ends_with(".json") {
        return false;
    }
    let mark = format!("\"generator\":\"{GENERATOR}\"");
    fsx::read_private(path, 64 * 1024).is_ok_and(|bytes| bytes.windows(mark.len()).any(|w| w == mark.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn removes_only_batons_stale_files() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let ours = r#"{"session_id":"a","generator":"baton"}"#;
        fs::write(d.join("claude-ctx-a.json"), ours).unwrap();
        fs::write(d.join("claude-ctx-a-warned.lock"), "").unwrap();
        fs::write(d.join("claude-ctx-gsd.json"), r#"{"session_id":"gsd"}"#).unwrap();
        fs::write(d.join("other.json"), ours).unwrap();
        fs::write(
            d.join(format!("{}0-0123456789abcdef-gsd.json", fsx::PROJECT_CACHE_PREFIX)),
            ours,
        )
        .unwrap();
        let uid = unsafe { libc::geteuid() };
        let now = crate::clock::unix_now();
        assert_eq!(sweep(d, now, uid), 0, "fresh files stay");
        assert_eq!(sweep(d, now + STALE_AFTER_SECS + 5, uid), 3);
        assert!(!d.join("claude-ctx-a.json").exists() && !d.join("claude-ctx-a-warned.lock").exists());
        assert!(d.join("claude-ctx-gsd.json").exists() && d.join("other.json").exists());
    }

    #[test]
    fn a_stale_lock_that_is_held_stays() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let held = d.join("claude-ctx-a-warned.lock");
        let project = d.join(format!("{}0123456789abcdef-handoff.lock", fsx::PROJECT_LOCK_PREFIX));
        let free = d.join("claude-ctx-b-warned.lock");
        let guard = fsx::lock_exclusive(&held, Duration::ZERO).unwrap();
        let _project_guard = fsx::lock_exclusive(&project, Duration::ZERO).unwrap();
        fs::write(&free, "").unwrap();
        let uid = unsafe { libc::geteuid() };
        let later = crate::clock::unix_now() + STALE_AFTER_SECS + 5;
        assert_eq!(sweep(d, later, uid), 1, "only the free lock goes");
        assert!(held.exists() && project.exists() && !free.exists());
        drop(guard);
        assert_eq!(sweep(d, later, uid), 1, "released, it goes too");
        assert!(!held.exists());
    }
}
