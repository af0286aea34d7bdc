//! `.planning/handoffs/`: where handoffs and `.continue-here.md` pages go once they are
//! used or replaced. Files are moved, never deleted, and an archived file is never
//! overwritten: names carry the time and, when that is taken, a counter.

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::planning::Project;

/// `<root>/.planning/handoffs`.
pub fn dir(project: &Project) -> PathBuf {
    project.planning_dir().join("handoffs")
}

/// Moves `from` into the archive as `<stem>-<time>.<ext>` (`-2`, `-3`, … when taken);
/// returns the new path. A missing `from` is an error for the caller to skip beforehand.
pub fn move_in(
    project: &Project,
    from: &Path,
    stem: &str,
    ext: &str,
    now: chrono::DateTime<chrono::Utc>,
) -> Result<PathBuf> {
    let archive = dir(project);
    std::fs::create_dir_all(&archive).map_err(|e| Error::io(&archive, e))?;
    let stamp = now.format("%Y%m%dT%H%M%SZ");
    for n in 1..10_000u32 {
        let name = match n {
            1 => format!("{stem}-{stamp}.{ext}"),
            n => format!("{stem}-{stamp}-{n}.{ext}"),
        };
        let to = archive.join(name);
        if place(from, &to).map_err(|e| Error::io(from, e))? {
            return Ok(to);
        }
    }
    Err(Error::Failed(format!(
        "{}: no free name for {stem}-{stamp}.{ext}; clean up the archive",
        archive.display()
    )))
}

/// Moves `from` to `to` unless `to` exists; `Ok(false)` when it does. A hard link claims the
/// name atomically; where links are not supported, a checked rename is the fallback.
fn place(from: &Path, to: &Path) -> std::io::Result<bool> {
    match std::fs::hard_link(from, to) {
        Ok(()) => {
            std::fs::remove_file(from)?;
            Ok(true)
        }
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(false),
        Err(_) if to.symlink_metadata().is_ok() => Ok(false),
        Err(_) => std::fs::rename(from, to).map(|()| true),
    }
}

/// `03-cart` for a phase directory, `planning` for `.planning/`: names archived pages.
pub fn dir_label(dir: &Path) -> String {
    dir.file_name()
        .map(|n| n.to_string_lossy().trim_start_matches('.').to_owned())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_within_one_second() {
        let tmp = tempfile::tempdir().unwrap();
        let project = Project {
            root: tmp.path().to_path_buf(),
        };
        let now = chrono::Utc::now();
        let mut seen = Vec::new();
        for i in 0..3 {
            let from = tmp.path().join("HANDOFF.json");
            std::fs::write(&from, i.to_string()).unwrap();
            let to = move_in(&project, &from, "HANDOFF", "json", now).unwrap();
            assert!(!from.exists());
            assert_eq!(std::fs::read_to_string(&to).unwrap(), i.to_string());
            seen.push(to);
        }
        seen.dedup();
        assert_eq!(seen.len(), 3);
    }
}
