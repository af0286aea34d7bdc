//! Writing the project's own files (`.planning/`, `.baton/`): the one rule for links and the
//! one write path. baton never writes through a symbolic link in the project tree, never
//! replaces one with a copy of its target and never writes outside the project: a path with
//! a link anywhere below the project root is refused, with a message saying what to do.

use std::path::{Component, Path, PathBuf};

use super::Project;
use crate::error::{Error, Result};
use crate::fsx;

/// Mode of a project file baton creates (an existing file keeps its own).
const NEW_FILE_MODE: u32 = 0o644;

impl Project {
    /// Refuses `path` unless it lies under the project root and no part of it below the root
    /// (a folder on the way, or the file itself) is a symbolic link. Missing parts are fine:
    /// they will be created as real folders.
    pub fn check_writable(&self, path: &Path) -> Result<()> {
        let outside = || {
            Error::Failed(format!(
                "{}: refusing to write outside the project {}",
                path.display(),
                self.root.display()
            ))
        };
        let below = path.strip_prefix(&self.root).map_err(|_| outside())?;
        let mut at = self.root.clone();
        for part in below.components() {
            let Component::Normal(name) = part else {
                return Err(outside());
            };
            at.push(name);
            match std::fs::symlink_metadata(&at) {
                Ok(meta) if meta.file_type().is_symlink() => return Err(link_refused(path, &at)),
                Ok(_) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
                Err(e) => return Err(Error::io(&at, e)),
            }
        }
        Ok(())
    }

    /// Creates `dir` (and the folders above it) under the project, after [`Self::check_writable`].
    pub fn create_dir(&self, dir: &Path) -> Result<()> {
        self.check_writable(dir)?;
        std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))
    }

    /// Writes a project file atomically and durably (fsync, rename) after
    /// [`Self::check_writable`], creating its folder. An existing file keeps its mode (and
    /// owner where possible); a new one is 0644.
    pub fn write_file(&self, path: &Path, contents: &[u8]) -> Result<()> {
        self.check_writable(path)?;
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
        }
        fsx::write_atomic_keeping_mode(path, contents, NEW_FILE_MODE, fsx::Durability::Durable)
            .map_err(|e| Error::io(path, e))
    }
}

/// The refusal for a write to `path` that would pass through the link at `link`.
fn link_refused(path: &Path, link: &Path) -> Error {
    let target = std::fs::read_link(link).unwrap_or_else(|_| PathBuf::from("?"));
    let what = if link == path {
        format!("{} is a symbolic link (to {})", path.display(), target.display())
    } else {
        format!(
            "{}: {} is a symbolic link (to {})",
            path.display(),
            link.display(),
            target.display()
        )
    };
    Error::Failed(format!(
        "{what}, and baton does not write through links in a project: that could change a file \
         outside it, or copy the link's target into the repository.\nReplace the link with the file or \
         folder itself (or move it away), then run the command again."
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_below_the_root_are_refused_and_missing_parts_are_fine() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("proj");
        let outside = tmp.path().join("elsewhere");
        std::fs::create_dir_all(root.join(".planning/phases/03-cart")).unwrap();
        std::fs::create_dir_all(&outside).unwrap();
        let project = Project { root: root.clone() };
        project
            .check_writable(&root.join(".planning/phases/03-cart/.continue-here.md"))
            .unwrap();
        project.check_writable(&root.join(".baton/agents/a.json")).unwrap();
        crate::platform::fs::symlink_dir(&outside, &root.join(".baton")).unwrap();
        let refused = project.check_writable(&root.join(".baton/agents/a.json")).unwrap_err();
        assert!(refused.to_string().contains("symbolic link"), "{refused}");
        crate::platform::fs::symlink_file(&outside.join("secret"), &root.join(".planning/STATE.md")).unwrap();
        assert!(project.check_writable(&root.join(".planning/STATE.md")).is_err());
        assert!(project.check_writable(&outside.join("x")).is_err());
        assert!(project.check_writable(&root.join(".planning/../../x")).is_err());
    }
}
