//! The project's planning state: finding the project root, GSD's `.planning/` files.

pub mod async_jobs;
mod bound;
pub mod config;
pub mod files;
pub mod fingerprint;
pub mod layout;
pub mod number;
pub mod phases;
pub mod progress;
pub mod roadmap;
pub mod sections;
pub mod snapshot;
pub mod state;
pub mod state_edit;
pub mod yaml;

use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::time::Duration;

pub use bound::Bound;

use crate::error::{Context, Error, Result};
use crate::fsx;

/// Longest a command waits for another baton process holding the same project lock.
const LOCK_WAIT: Duration = Duration::from_secs(10);
/// Longest a hook waits for it: Claude Code waits for the hook, so it gives up (silently,
/// leaving that bit of bookkeeping undone) rather than stall the session.
const HOOK_LOCK_WAIT: Duration = Duration::from_millis(50);

/// How many directories up baton looks for the project root.
const MAX_DEPTH: usize = 40;

/// The project a directory belongs to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Project {
    /// The directory holding `.planning/` or `.baton/`, else the git work tree's top.
    pub root: PathBuf,
}

impl Project {
    /// Walks up from `start` to the nearest directory holding `.planning/` or `.baton/`,
    /// stopping at the git work tree's top and at the home directory.
    pub fn find(start: &Path) -> Option<Self> {
        let home = dirs::home_dir();
        let mut git_top = None;
        for dir in start.ancestors().take(MAX_DEPTH) {
            if dir.join(".planning").is_dir() || dir.join(".baton").is_dir() {
                return Some(Self {
                    root: dir.to_path_buf(),
                });
            }
            if git_top.is_none() && dir.join(".git").exists() {
                git_top = Some(dir.to_path_buf());
                break;
            }
            if home.as_deref() == Some(dir) {
                break;
            }
        }
        git_top.map(|root| Self { root })
    }

    /// The project around the current directory, or an error saying where to run from.
    pub fn current() -> Result<Self> {
        let cwd = crate::error::current_dir()?;
        Self::find(&cwd).ok_or_else(|| {
            Error::Failed(format!(
                "{} is not inside a project: run this in a directory with .planning/ (GSD), .baton/ or a git work tree",
                cwd.display()
            ))
        })
    }

    /// The project around the current directory, or the directory itself when it is in none
    /// (for commands that may start a project's files, like `pause`).
    pub fn current_or_here() -> Result<Self> {
        let cwd = crate::error::current_dir()?;
        Ok(Self::find(&cwd).unwrap_or(Self { root: cwd }))
    }

    /// The project around the current directory that has `.planning/`, or an error saying what to do.
    pub fn current_with_planning() -> Result<Self> {
        let cwd = crate::error::current_dir()?;
        match Self::find(&cwd) {
            Some(p) if p.planning_dir().is_dir() => Ok(p),
            _ => Err(Error::Failed(format!(
                "no .planning/ directory in {} or above.\nbaton reads GSD's planning files there: create them with GSD's \
                 /gsd-new-project, or run `baton pause` to start a handoff in this directory.",
                cwd.display()
            ))),
        }
    }

    /// An exclusive lock guarding read-modify-write of the project's files of one kind
    /// (`planning`, `agents-<run>`, `config.json`, …). The lock file lives in baton's private
    /// directory in the temp dir, not in the repository. A command waits up to 10 s for
    /// another baton process; a hook ([`fsx::in_hook`]) 50 ms.
    pub fn lock(&self, name: &str) -> Result<fsx::LockGuard> {
        let wait = if fsx::in_hook() { HOOK_LOCK_WAIT } else { LOCK_WAIT };
        self.lock_waiting(name, wait)
    }

    /// [`Self::lock`], waiting at most `wait`. The error says what is in the way: another
    /// baton process that held it all that time, or what stands at the lock's place.
    pub fn lock_waiting(&self, name: &str, wait: Duration) -> Result<fsx::LockGuard> {
        let what = format!("the project's {name} files");
        let path = fsx::project_lock_path(&self.root, name).context(format!("cannot lock {what}"))?;
        fsx::lock_exclusive(&path, wait).map_err(|source| Error::Lock {
            what,
            path,
            wait,
            source,
        })
    }

    /// `<root>/.planning`.
    pub fn planning_dir(&self) -> PathBuf {
        self.root.join(".planning")
    }

    /// The directory holding the live STATE.md, ROADMAP.md and `phases/`: an active gsd-core
    /// workstream's (`.planning/workstreams/<ws>/`), else `.planning/`.
    pub fn live_dir(&self) -> PathBuf {
        layout::live_dir(&self.planning_dir()).0
    }

    /// GSD-style planning state is in use: the live STATE.md exists.
    pub fn has_planning_state(&self) -> bool {
        self.live_dir().join("STATE.md").is_file()
    }
}

/// Reads a planning file of at most `limit` bytes: `Ok(None)` when it does not exist, an
/// error naming the file when it is larger or cannot be read.
pub fn read_bounded(path: &Path, limit: u64) -> Result<Option<Vec<u8>>> {
    match fsx::read_regular(path, limit) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(e) if matches!(e.kind(), ErrorKind::NotFound | ErrorKind::NotADirectory) => Ok(None),
        Err(e) if e.kind() == ErrorKind::FileTooLarge => Err(past_a_bound(path, Bound::FileBytes { limit })),
        Err(e) => Err(Error::io(path, e)),
    }
}

/// The error for a planning file past one of baton's bounds: which file, which bound, what to do.
pub fn past_a_bound(path: &Path, bound: Bound) -> Error {
    Error::PastABound {
        path: path.to_owned(),
        bound: Box::new(bound),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    #[test]
    fn walks_up_to_the_planning_dir_but_not_past_the_git_top() {
        let tmp = tempfile::tempdir().unwrap();
        let outer = tmp.path();
        fs::create_dir_all(outer.join(".planning")).unwrap();
        fs::write(outer.join(".planning/STATE.md"), "---\n---\n").unwrap();
        let deep = outer.join("src/a/b");
        fs::create_dir_all(&deep).unwrap();
        let found = Project::find(&deep).unwrap();
        assert_eq!(found.root, outer);
        assert!(found.has_planning_state());

        let repo = outer.join("vendor/lib");
        fs::create_dir_all(repo.join(".git")).unwrap();
        fs::create_dir_all(repo.join("src")).unwrap();
        let found = Project::find(&repo.join("src")).unwrap();
        assert_eq!(found.root, repo);
        assert!(!found.has_planning_state());
    }
}
