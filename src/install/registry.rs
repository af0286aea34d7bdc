//! The user's own record of baton's installs (`<local data>/baton/installs.json`): the copies
//! `install --copy` placed and every Claude folder baton wired. Uninstall goes by it to know
//! which settings may still run a copy, and never trusts a binary path that only a project's
//! manifest (data anyone can commit) names. Its lock (`install.lock` beside it) makes each
//! install or uninstall one transaction.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::error::{Context, Error, Result};
use crate::fsx;

const FILE_NAME: &str = "installs.json";
const LOCK_NAME: &str = "install.lock";

/// How long an install or uninstall waits for another one to finish.
const LOCK_WAIT: Duration = Duration::from_secs(60);

/// The record.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[serde(default)]
pub struct Registry {
    pub version: u32,
    /// Where `install --copy` put baton's copy (whether or not it is still there).
    pub copies: Vec<PathBuf>,
    /// The Claude folders (`~/.claude`, `<project>/.claude`) baton was installed into.
    pub scopes: Vec<PathBuf>,
}

/// The folder of the record and its lock; `None` without a home directory.
fn dir() -> Option<PathBuf> {
    dirs::data_local_dir().map(|d| d.join("baton"))
}

/// The transaction's lock, held until dropped.
pub struct Transaction {
    _guard: fsx::LockGuard,
    dir: PathBuf,
    pub registry: Registry,
}

impl Transaction {
    /// Waits for any other install or uninstall to finish, then reads the record.
    pub fn begin() -> Result<Self> {
        let dir = dir().ok_or_else(|| {
            Error::Failed("cannot find the home directory for baton's install record; set HOME".into())
        })?;
        std::fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
        let lock = dir.join(LOCK_NAME);
        let guard = fsx::lock_exclusive(&lock, LOCK_WAIT).map_err(|e| match e.kind() {
            std::io::ErrorKind::TimedOut => Error::Failed(format!(
                "another baton install or uninstall has held {} for a minute; let it finish (or end it), \
                 then run this again. Nothing was changed.",
                lock.display()
            )),
            _ => Error::io(&lock, e),
        })?;
        let registry = Registry::read_in(&dir)?;
        Ok(Self {
            _guard: guard,
            dir,
            registry,
        })
    }

    /// Writes the record as it now stands (atomically).
    pub fn save(&mut self) -> Result<()> {
        let path = self.dir.join(FILE_NAME);
        self.registry.version = 1;
        let mut json = serde_json::to_vec_pretty(&self.registry).context("cannot encode baton's install record")?;
        json.push(b'\n');
        fsx::write_atomic(&path, &json, 0o600, fsx::Durability::Durable).map_err(|e| Error::io(&path, e))
    }
}

impl Registry {
    /// The record as it stands, without the lock (a dry run's view); none is empty.
    pub fn load() -> Result<Self> {
        match dir() {
            Some(dir) => Self::read_in(&dir),
            None => Ok(Self::default()),
        }
    }

    fn read_in(dir: &Path) -> Result<Self> {
        super::manifest::read_record(
            &dir.join(FILE_NAME),
            "baton's install record",
            "move it aside and run this again",
        )
    }

    /// Records a Claude folder baton is installed into; whether that changed the record.
    pub fn add_scope(&mut self, claude_dir: &Path) -> bool {
        add(&mut self.scopes, claude_dir)
    }

    /// Records a copy baton is about to place; whether that changed the record.
    pub fn add_copy(&mut self, path: &Path) -> bool {
        add(&mut self.copies, path)
    }

    /// Forgets a Claude folder baton was uninstalled from; whether that changed the record.
    pub fn remove_scope(&mut self, claude_dir: &Path) -> bool {
        let before = self.scopes.len();
        self.scopes.retain(|p| p != claude_dir);
        self.scopes.len() != before
    }

    /// Forgets a copy baton removed.
    pub fn remove_copy(&mut self, path: &Path) {
        self.copies.retain(|p| p != path);
    }

    /// Whether baton placed a copy at `path`.
    pub fn placed(&self, path: &Path) -> bool {
        self.copies.iter().any(|p| p == path)
    }
}

fn add(list: &mut Vec<PathBuf>, path: &Path) -> bool {
    let new = !list.iter().any(|p| p == path);
    if new {
        list.push(path.to_path_buf());
    }
    new
}
