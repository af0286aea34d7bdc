//! Removes baton's own stale files from the temp dir (GSD never deletes its files; users found
//! hundreds): old `claude-ctx-*` files baton wrote, lock files nobody holds, and the temp
//! files of writes a kill interrupted. Runs at most once an hour, gated by a stamp file.

use std::fs;
use std::path::Path;
use std::time::{Duration, UNIX_EPOCH};

use crate::context::bridge::GENERATOR;
use crate::{fsx, platform};

/// Files untouched for this long are stale.
const STALE_AFTER_SECS: u64 = 24 * 60 * 60;
/// The sweep runs at most this often.
const SWEEP_EVERY_SECS: u64 = 60 * 60;
/// A directory scan stops after this many entries, so a huge temp dir costs a bounded time.
const MAX_ENTRIES: usize = 20_000;

/// Sweeps the temp dir and baton's private directory in it when the last sweep is over an
/// hour old; errors are ignored.
pub fn sweep_if_due(now: u64) {
    let Ok(private) = platform::temp::private_dir() else {
        return;
    };
    let stamp = private.join("sweep.stamp");
    let last = fs::symlink_metadata(&stamp)
        .ok()
        .and_then(|m| m.modified().ok())
        .map(crate::clock::unix_secs);
    if last.is_some_and(|t| now.saturating_sub(t) < SWEEP_EVERY_SECS) {
        return;
    }
    // Claim the sweep first so parallel hooks don't all scan.
    if fsx::write_atomic(&stamp, b"", 0o600, fsx::Durability::Ephemeral).is_err() {
        return;
    }
    sweep(&fsx::temp_dir(), Place::TempDir, now);
    sweep(&private, Place::Private, now);
}

/// Which directory is swept: what counts as baton's differs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// The shared temp dir: `claude-ctx-*.json` files with baton's mark, and the lock files
    /// older versions kept there.
    TempDir,
    /// baton's private directory: its per-session files and project locks.
    Private,
}

/// Removes from `dir` the user's own files that baton wrote and nobody uses any more (see
/// [`Place`]) untouched for a day (a lock only when nobody holds it), and abandoned temp
/// files of atomic writes. Returns how many went.
pub fn sweep(dir: &Path, place: Place, now: u64) -> usize {
    let clock = UNIX_EPOCH + Duration::from_secs(now);
    let mut removed = fsx::remove_abandoned_temp_files(dir, clock);
    let Ok(entries) = fs::read_dir(dir) else {
        return removed;
    };
    for entry in entries.take(MAX_ENTRIES).flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        let lock = is_lock(place, name);
        if !lock && !is_batons_by_name(place, name) {
            continue;
        }
        let path = entry.path();
        let Ok(meta) = fs::symlink_metadata(&path) else {
            continue;
        };
        let age = meta
            .modified()
            .map_or(0, |t| now.saturating_sub(crate::clock::unix_secs(t)));
        if !meta.is_file() || !platform::fs::is_owned_by_user(&meta) || age < STALE_AFTER_SECS {
            continue;
        }
        if place == Place::TempDir && !lock && !carries_batons_mark(&path) {
            continue;
        }
        // A lock file may be old and still held (a hook waiting on a long operation):
        // removing it then would let the next taker lock a new file beside the holder.
        let _held = if lock {
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

/// baton's lock files: per-session and project locks in the private directory; the debounce
/// and project locks older versions kept in the temp dir.
fn is_lock(place: Place, name: &str) -> bool {
    name.ends_with(".lock")
        && match place {
            Place::Private => name.starts_with(fsx::SESSION_FILE_PREFIX) || name.starts_with(fsx::PROJECT_LOCK_PREFIX),
            Place::TempDir => {
                name.starts_with(fsx::PROJECT_LOCK_PREFIX)
                    || (name.starts_with("claude-ctx-") && name.ends_with("-warned.lock"))
            }
        }
}

/// Other files that may be baton's: per-session notes and per-project caches in the private
/// directory; bridge and
/// debounce files in the temp dir (GSD's too, told apart by [`carries_batons_mark`]).
fn is_batons_by_name(place: Place, name: &str) -> bool {
    let prefixes: &[&str] = match place {
        Place::Private => &[fsx::SESSION_FILE_PREFIX, fsx::PROJECT_CACHE_PREFIX],
        Place::TempDir => &["claude-ctx-"],
    };
    prefixes.iter().any(|prefix| name.starts_with(prefix)) && name.ends_with(".json")
}

fn carries_batons_mark(path: &Path) -> bool {
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
        fs::write(d.join("session-of-another-tool.json"), "{}").unwrap();
        let now = crate::clock::unix_now();
        assert_eq!(sweep(d, Place::TempDir, now), 0, "fresh files stay");
        assert_eq!(sweep(d, Place::TempDir, now + STALE_AFTER_SECS + 5), 2);
        assert!(!d.join("claude-ctx-a.json").exists() && !d.join("claude-ctx-a-warned.lock").exists());
        for kept in ["claude-ctx-gsd.json", "other.json", "session-of-another-tool.json"] {
            assert!(d.join(kept).exists(), "{kept}");
        }
    }

    #[test]
    fn the_private_directory_loses_stale_session_files() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        fs::write(d.join("session-a-warned.lock"), "").unwrap();
        fs::write(d.join("session-a-notices.json"), "{}").unwrap();
        fs::write(
            d.join(format!("{}0123456789abcdef-gsd.json", fsx::PROJECT_CACHE_PREFIX)),
            "{}",
        )
        .unwrap();
        fs::write(d.join("sweep.stamp"), "").unwrap();
        let later = crate::clock::unix_now() + STALE_AFTER_SECS + 5;
        assert_eq!(sweep(d, Place::Private, later), 3);
        assert!(d.join("sweep.stamp").exists());
    }

    #[test]
    fn a_stale_lock_that_is_held_stays() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let held = d.join("session-a-warned.lock");
        let project = d.join(format!("{}0123456789abcdef-handoff.lock", fsx::PROJECT_LOCK_PREFIX));
        let free = d.join("session-b-warned.lock");
        let guard = fsx::lock_exclusive(&held, Duration::ZERO).unwrap();
        let _project_guard = fsx::lock_exclusive(&project, Duration::ZERO).unwrap();
        fs::write(&free, "").unwrap();
        let later = crate::clock::unix_now() + STALE_AFTER_SECS + 5;
        assert_eq!(sweep(d, Place::Private, later), 1, "only the free lock goes");
        assert!(held.exists() && project.exists() && !free.exists());
        drop(guard);
        assert_eq!(sweep(d, Place::Private, later), 1, "released, it goes too");
        assert!(!held.exists());
    }
}
