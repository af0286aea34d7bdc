//! `.planning/handoffs/`: where handoffs and `.continue-here.md` pages go once they are
//! used or replaced. Files are archived, never deleted, and an archived file is never
//! overwritten: names carry the time and, when that is taken, a counter. A file is put in
//! the archive before it leaves its place, so a crash at any point loses nothing: `pause`
//! then replaces it atomically, `resume` removes it.

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::fsx;
use crate::planning::Project;

/// `<root>/.planning/handoffs`.
pub fn dir(project: &Project) -> PathBuf {
    project.planning_dir().join("handoffs")
}

/// The name a file takes in the archive: `<stem>-<at>.<ext>`, `-2`, `-3`, … when taken.
#[derive(Debug, Clone, Copy)]
pub struct Entry<'a> {
    pub stem: &'a str,
    pub ext: &'a str,
    pub at: chrono::DateTime<chrono::Utc>,
}

/// Puts `from` into the archive under `entry`'s name and leaves it in place, for the caller
/// to replace atomically; returns the archived path.
pub fn keep(project: &Project, from: &Path, entry: Entry) -> Result<PathBuf> {
    let Entry { stem, ext, at: now } = entry;
    project.check_writable(from)?;
    let archive = dir(project);
    project.create_dir(&archive)?;
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

/// Moves `from` into the archive: [`keep`], then removes it. A crash in between leaves it in
/// both places, never in neither.
pub fn move_in(project: &Project, from: &Path, entry: Entry) -> Result<PathBuf> {
    let to = keep(project, from, entry)?;
    std::fs::remove_file(from).map_err(|e| Error::io(from, e))?;
    Ok(to)
}

/// Gives `from`'s contents the name `to` unless `to` exists (`Ok(false)` then); `from` stays.
/// A hard link claims the name atomically; where links are not supported, a copy is written
/// atomically (the caller holds the `planning` lock, so no other baton claims names meanwhile).
fn place(from: &Path, to: &Path) -> std::io::Result<bool> {
    match std::fs::hard_link(from, to) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(false),
        Err(_) if to.symlink_metadata().is_ok() => Ok(false),
        Err(_) => {
            // Private until it has the original's permissions.
            fsx::write_atomic(to, &std::fs::read(from)?, 0o600, fsx::Durability::Durable)?;
            std::fs::set_permissions(to, std::fs::metadata(from)?.permissions())?;
            Ok(true)
        }
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

    fn handoff(at: chrono::DateTime<chrono::Utc>) -> Entry<'static> {
        Entry {
            stem: "HANDOFF",
            ext: "json",
            at,
        }
    }

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
            let to = move_in(&project, &from, handoff(now)).unwrap();
            assert!(!from.exists());
            assert_eq!(std::fs::read_to_string(&to).unwrap(), i.to_string());
            seen.push(to);
        }
        seen.dedup();
        assert_eq!(seen.len(), 3);
    }

    #[test]
    fn keep_archives_a_copy_and_leaves_the_file_in_place() {
        let tmp = tempfile::tempdir().unwrap();
        let project = Project {
            root: tmp.path().to_path_buf(),
        };
        let from = tmp.path().join("HANDOFF.json");
        std::fs::write(&from, "old").unwrap();
        let to = keep(&project, &from, handoff(chrono::Utc::now())).unwrap();
        assert_eq!(std::fs::read_to_string(&from).unwrap(), "old");
        assert_eq!(std::fs::read_to_string(&to).unwrap(), "old");
        // Replacing the file (as pause does) leaves the archived one as it was.
        fsx::write_atomic(&from, b"new", 0o644, fsx::Durability::Durable).unwrap();
        assert_eq!(std::fs::read_to_string(&to).unwrap(), "old");
    }
}
