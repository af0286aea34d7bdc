//! The temp files that atomic writes rename into place, and the clean-up of those a kill left
//! behind.

use std::fs;
use std::path::Path;
use std::time::{Duration, SystemTime};

use crate::platform;

/// Name prefix and suffix of the temp files [`write_atomic`] renames into place.
pub(super) const TEMP_PREFIX: &str = ".baton-";
pub(super) const TEMP_SUFFIX: &str = ".tmp";
/// A temp file of baton's this old was left by a write that was killed: no write takes
/// anywhere near this long.
const ABANDONED_AFTER: Duration = Duration::from_secs(10 * 60);

/// Removes from `dir` the temp files of baton's atomic writes (`.baton-*.tmp`) that are the
/// user's own regular files and older than [`ABANDONED_AFTER`]: a write killed between
/// creating its temp file and renaming it leaves one behind (in `.planning/` it shows in
/// `git status`). A fresh one may be another process's write in progress, and stays.
/// Returns how many were removed; errors are ignored.
pub fn remove_abandoned_temp_files(dir: &Path, now: SystemTime) -> usize {
    remove_temp_files(dir, now, ABANDONED_AFTER)
}

/// Removes from `dir` the temp files of baton's atomic writes that are the user's own regular
/// files at least `min_age` old at `now`. With no age, for a folder whose writers are all
/// stopped (the install lock is held): every one of them was left by a killed write.
pub fn remove_temp_files(dir: &Path, now: SystemTime, min_age: Duration) -> usize {
    let Ok(entries) = fs::read_dir(dir) else {
        return 0;
    };
    let mut removed = 0;
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if !(name.starts_with(TEMP_PREFIX) && name.ends_with(TEMP_SUFFIX)) {
            continue;
        }
        let Ok(meta) = fs::symlink_metadata(entry.path()) else {
            continue;
        };
        let age = meta.modified().ok().and_then(|t| now.duration_since(t).ok());
        let abandoned = age.is_some_and(|age| age >= min_age);
        if meta.is_file() && platform::fs::is_owned_by_user(&meta) && abandoned && fs::remove_file(entry.path()).is_ok()
        {
            removed += 1;
        }
    }
    removed
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs::File;

    #[test]
    fn abandoned_temp_files_go_and_fresh_ones_stay() {
        let dir = tempfile::tempdir().unwrap();
        let now = SystemTime::now();
        for name in [".baton-old.tmp", ".baton-new.tmp", "keep.tmp", ".baton-notes.md"] {
            fs::write(dir.path().join(name), "x").unwrap();
        }
        let old = File::options()
            .write(true)
            .open(dir.path().join(".baton-old.tmp"))
            .unwrap();
        old.set_modified(now - ABANDONED_AFTER - Duration::from_secs(1))
            .unwrap();
        assert_eq!(remove_abandoned_temp_files(dir.path(), now), 1);
        let mut left: Vec<String> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(left, [".baton-new.tmp", ".baton-notes.md", "keep.tmp"]);
    }
}
