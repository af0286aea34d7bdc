//! `<claude dir>/baton-install.json`: what `baton install` added (hook groups, its statusLine
//! and the one it replaced, command files with their contents' hash), so uninstall removes
//! exactly that.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::settings::{Installed, Merge};
use crate::error::{Error, Result};
use crate::fsx;

pub const FILE_NAME: &str = "baton-install.json";

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct AddedGroup {
    pub event: String,
    pub group: Value,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct AddedCommand {
    pub path: PathBuf,
    /// FNV-1a of the contents written, to tell whether the user changed the file since.
    pub hash: String,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[serde(default)]
pub struct Manifest {
    pub version: u32,
    pub groups: Vec<AddedGroup>,
    pub statusline: Option<Value>,
    pub replaced_statusline: Option<Value>,
    pub created_hooks_key: bool,
    pub commands: Vec<AddedCommand>,
    /// The backup of settings.json taken by the first install, for a byte-exact restore.
    pub original_backup: Option<PathBuf>,
    /// The first install created settings.json.
    pub created_settings: bool,
    /// Directories install created (the Claude folder, `commands/`, `commands/baton/`):
    /// uninstall removes them when they are empty again.
    pub created_dirs: Vec<PathBuf>,
}

impl Manifest {
    /// Reads the manifest of a Claude folder; missing means nothing installed.
    pub fn read(claude_dir: &Path) -> Result<Self> {
        let path = claude_dir.join(FILE_NAME);
        match std::fs::read(&path) {
            Ok(bytes) => serde_json::from_slice(&bytes).map_err(|e| {
                Error::invalid(
                    &path,
                    format!("is not baton's install manifest ({e}); move it aside and reinstall"),
                )
            }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Self::default()),
            Err(e) => Err(Error::io(&path, e)),
        }
    }

    /// Whether nothing is recorded.
    pub fn is_empty(&self) -> bool {
        self.groups.is_empty() && self.statusline.is_none() && self.commands.is_empty()
    }

    /// Adds one install's changes (a second install adds what it added, if anything).
    /// `backup` is the backup this install took, `created` whether it created the file.
    pub fn record(
        &mut self,
        merge: &Merge,
        statusline: Option<Value>,
        commands: &[(PathBuf, String)],
        backup: Option<&Path>,
        created: bool,
    ) {
        if self.is_empty() {
            self.original_backup = backup.map(Path::to_path_buf);
            self.created_settings = created;
        }
        self.version = 1;
        for (event, group) in &merge.added_groups {
            self.groups.push(AddedGroup {
                event: event.clone(),
                group: group.clone(),
            });
        }
        if statusline.is_some() {
            self.statusline = statusline;
            if merge.replaced_statusline.is_some() {
                self.replaced_statusline = merge.replaced_statusline.clone();
            }
        }
        self.created_hooks_key |= merge.created_hooks_key;
        // Entries re-pointed at a new binary: the record follows, so uninstall still finds them.
        for (what, before, after) in &merge.repointed {
            if what == "statusLine" {
                if self.statusline.as_ref() == Some(before) {
                    self.statusline = Some(after.clone());
                }
            } else if let Some(g) = self.groups.iter_mut().find(|g| &g.event == what && &g.group == before) {
                g.group = after.clone();
            }
        }
        for (path, hash) in commands {
            self.commands.retain(|c| &c.path != path);
            self.commands.push(AddedCommand {
                path: path.clone(),
                hash: hash.clone(),
            });
        }
    }

    /// Records directories this install created (kept once, outermost first).
    pub fn record_dirs(&mut self, created: &[PathBuf]) {
        for dir in created {
            if !self.created_dirs.contains(dir) {
                self.created_dirs.push(dir.clone());
            }
        }
    }

    /// The hash recorded for a command file baton wrote, if any.
    pub fn command_hash(&self, path: &Path) -> Option<&str> {
        self.commands.iter().find(|c| c.path == path).map(|c| c.hash.as_str())
    }

    /// The settings part, for `settings::unmerge`.
    pub fn installed(&self) -> Installed {
        Installed {
            groups: self.groups.iter().map(|g| (g.event.clone(), g.group.clone())).collect(),
            statusline: self.statusline.clone(),
            replaced_statusline: self.replaced_statusline.clone(),
            created_hooks_key: self.created_hooks_key,
        }
    }

    /// Writes the manifest into `claude_dir` atomically.
    pub fn write(&self, claude_dir: &Path) -> Result<()> {
        let path = claude_dir.join(FILE_NAME);
        let mut json = serde_json::to_vec_pretty(self).map_err(|e| Error::Failed(e.to_string()))?;
        json.push(b'\n');
        fsx::write_atomic(&path, &json, 0o644, fsx::Durability::Durable).map_err(|e| Error::io(&path, e))
    }

    /// Removes the manifest from `claude_dir` (nothing to do when it is missing).
    pub fn remove(claude_dir: &Path) -> Result<()> {
        let path = claude_dir.join(FILE_NAME);
        fsx::remove_if_exists(&path).map_err(|e| Error::io(&path, e))
    }
}
