//! Multi-agent orchestration support: model profiles, the ledger of subagent runs, the
//! spot-check of what an agent claims, plan independence (waves) and the context payload a
//! new agent must read. The orchestrator stays thin; the bookkeeping is done here.

pub mod claims;
pub mod git;
pub mod hook;
pub mod ledger;
pub mod payload;
pub mod plans;
pub mod profile_config;
pub mod profiles;
pub mod verify;
pub mod waves;

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::error::{Error, Result};
use crate::fsx;
use crate::planning::Project;

/// Longest a command waits for another baton process holding the same lock.
const LOCK_WAIT: Duration = Duration::from_secs(5);

/// Takes the project lock named `name` (`.baton/locks/<name>.lock`), guarding a
/// read-modify-write of one of the project's files.
pub fn lock(project: &Project, name: &str) -> Result<fsx::LockGuard> {
    let dir = project.root.join(".baton/locks");
    std::fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
    let path = dir.join(format!("{name}.lock"));
    fsx::lock_exclusive(&path, LOCK_WAIT).map_err(|e| {
        Error::Failed(format!(
            "{}: {e}; another baton process is holding it, try again in a moment",
            path.display()
        ))
    })
}

/// The project of the current directory, or an error saying where to run from.
pub fn current_project() -> Result<Project> {
    let cwd = std::env::current_dir().map_err(|e| Error::io(Path::new("."), e))?;
    Project::find(&cwd).ok_or_else(|| {
        Error::Failed(format!(
            "{} is not inside a project: run this in a directory with .planning/ (GSD), .baton/ \
             or a git work tree",
            cwd.display()
        ))
    })
}

/// `path` relative to `root` when it lies below it, for display.
pub fn relative(path: &Path, root: &Path) -> PathBuf {
    path.strip_prefix(root)
        .map_or_else(|_| path.to_path_buf(), Path::to_path_buf)
}
