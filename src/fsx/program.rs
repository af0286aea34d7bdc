//! Replacing and removing a program's file that copies of the program may be running from
//! (baton's own installed copy, while sessions run its statusline and hooks): never written in
//! place, so a running copy is never corrupted and one starting sees the old file or the new.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use super::leftovers::{TEMP_PREFIX, TEMP_SUFFIX};
use super::{Durability, write_atomic};
use crate::platform;

/// Puts `contents` at `path` as an executable (`0755` on Unix) by renaming a complete, synced
/// copy over it. Where the system keeps a running program's file from being replaced
/// (Windows), the old file is first renamed aside under a temp name in the same directory,
/// which a later write there removes once no copy runs from it. Returns that name, if any.
pub fn replace_program(path: &Path, contents: &[u8]) -> io::Result<Option<PathBuf>> {
    match write_atomic(path, contents, 0o755, Durability::Durable) {
        Err(e) if platform::binary::is_running_program_refusal(&e) => {
            let aside = aside_path(path);
            fs::rename(path, &aside)?;
            write_atomic(path, contents, 0o755, Durability::Durable)?;
            Ok(Some(aside))
        }
        other => other.map(|()| None),
    }
}

/// Removes the program file at `path` (missing is fine). A running one the system will not
/// delete (Windows) is renamed aside instead; returns that name, for the user to remove once
/// the program has stopped.
pub fn remove_program(path: &Path) -> io::Result<Option<PathBuf>> {
    match fs::remove_file(path) {
        Ok(()) => Ok(None),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) if platform::binary::is_running_program_refusal(&e) => {
            let aside = aside_path(path);
            fs::rename(path, &aside)?;
            Ok(Some(aside))
        }
        Err(e) => Err(e),
    }
}

/// A fresh name beside `path` in the pattern of baton's temp files (`.baton-<name>-old-….tmp`),
/// so that [`super::remove_abandoned_temp_files`] clears it later.
fn aside_path(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map_or_else(|| "program".into(), |n| n.to_string_lossy());
    let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    path.with_file_name(format!(
        "{TEMP_PREFIX}{name}-old-{}-{nanos}{TEMP_SUFFIX}",
        std::process::id()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_program_is_replaced_whole_and_removed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bin/baton");
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        assert_eq!(replace_program(&path, b"one").unwrap(), None);
        assert_eq!(fs::read(&path).unwrap(), b"one");
        // The old file is not written in place: a second name for it still reads the old bytes.
        let other_name = dir.path().join("running");
        fs::hard_link(&path, &other_name).unwrap();
        replace_program(&path, b"two").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"two");
        assert_eq!(fs::read(&other_name).unwrap(), b"one");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o755);
        }
        assert_eq!(remove_program(&path).unwrap(), None);
        assert!(!path.exists());
        assert_eq!(remove_program(&path).unwrap(), None, "a missing file is fine");
        let aside = aside_path(&path);
        let name = aside.file_name().unwrap().to_string_lossy();
        assert!(
            name.starts_with(".baton-baton-old-") && name.ends_with(".tmp"),
            "{name}"
        );
        assert_eq!(aside.parent(), path.parent());
    }
}
