//! `<claude dir>/baton-install.json`: what `baton install` added (hook groups, its statusLine
//! and the one it replaced, command files with their contents' hash, baton's own copy), so
//! uninstall removes exactly that.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::settings::{Installed, Merge};
use crate::error::{Context, Error, Result};
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
    /// The statusLine baton set replaced a `null` one.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub statusline_was_null: bool,
    /// Events whose hook list was there and empty before install: left empty, not removed.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub kept_empty: Vec<String>,
    pub commands: Vec<AddedCommand>,
    /// The backup of settings.json taken by the first install, for a byte-exact restore.
    pub original_backup: Option<PathBuf>,
    /// The first install created settings.json.
    pub created_settings: bool,
    /// Directories install created (the Claude folder, `commands/`, `commands/baton/`):
    /// uninstall removes them when they are empty again.
    pub created_dirs: Vec<PathBuf>,
    /// Set while an install is under way: the manifest is written with it before settings.json
    /// or a command file changes and without it once they have. An install that finds it set
    /// completes the interrupted one (whose consent to replace the statusLine it reuses).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub in_progress: bool,
    /// Baton's entries as they were before the install under way re-pointed them at a new
    /// binary (`event` is `statusLine` for the statusLine): uninstall takes these out too.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub superseded: Vec<AddedGroup>,
    /// Command files as baton wrote them before the install under way rewrote them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub superseded_commands: Vec<AddedCommand>,
    /// baton's own copy that `install --copy` put at the per-user place: uninstall removes it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub binary: Option<PathBuf>,
}

impl Manifest {
    /// Reads the manifest of a Claude folder; missing means nothing installed.
    pub fn read(claude_dir: &Path) -> Result<Self> {
        read_record(
            &claude_dir.join(FILE_NAME),
            "baton's install manifest",
            "move it aside and reinstall",
        )
    }

    /// Whether nothing is recorded.
    pub fn is_empty(&self) -> bool {
        self.groups.is_empty() && self.statusline.is_none() && self.commands.is_empty() && self.binary.is_none()
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
            let added = AddedGroup {
                event: event.clone(),
                group: group.clone(),
            };
            // An interrupted install recorded it already.
            if !self.groups.contains(&added) {
                self.groups.push(added);
            }
        }
        if statusline.is_some() {
            self.statusline = statusline;
            if merge.replaced_statusline.is_some() {
                self.replaced_statusline = merge.replaced_statusline.clone();
            }
            self.statusline_was_null |= merge.statusline_was_null;
        }
        self.created_hooks_key |= merge.created_hooks_key;
        for event in &merge.kept_empty {
            if !self.kept_empty.contains(event) {
                self.kept_empty.push(event.clone());
            }
        }
        // Entries re-pointed at a new binary: the record follows, so uninstall still finds them,
        // and keeps the old form until the install settles (settings.json may still hold it).
        for (what, before, after) in &merge.repointed {
            let followed = if what == "statusLine" {
                let ours = self.statusline.as_ref() == Some(before);
                if ours {
                    self.statusline = Some(after.clone());
                }
                ours
            } else if let Some(g) = self.groups.iter_mut().find(|g| &g.event == what && &g.group == before) {
                g.group = after.clone();
                true
            } else {
                false
            };
            let old = AddedGroup {
                event: what.clone(),
                group: before.clone(),
            };
            if followed && !self.superseded.contains(&old) {
                self.superseded.push(old);
            }
        }
        for (path, hash) in commands {
            for old in self.commands.iter().filter(|c| &c.path == path && &c.hash != hash) {
                if !self.superseded_commands.contains(old) {
                    self.superseded_commands.push(old.clone());
                }
            }
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

    /// Whether baton recorded writing a command file at `path`.
    pub fn has_command(&self, path: &Path) -> bool {
        self.commands.iter().any(|c| c.path == path)
    }

    /// Whether contents hashing to `hash` at `path` are baton's: what the manifest records,
    /// or what an interrupted install was replacing.
    pub fn wrote(&self, path: &Path, hash: &str) -> bool {
        self.commands
            .iter()
            .chain(&self.superseded_commands)
            .any(|c| c.path == path && c.hash == hash)
    }

    /// Marks the install done: settings.json and the command files say what the manifest
    /// records, so the forms they replaced are forgotten.
    pub fn settle(&mut self) {
        self.in_progress = false;
        self.superseded.clear();
        self.superseded_commands.clear();
    }

    /// The settings part, for `settings::unmerge`.
    pub fn installed(&self) -> Installed {
        let pair = |g: &AddedGroup| (g.event.clone(), g.group.clone());
        Installed {
            groups: self.groups.iter().map(pair).collect(),
            statusline: self.statusline.clone(),
            replaced_statusline: self.replaced_statusline.clone(),
            created_hooks_key: self.created_hooks_key,
            statusline_was_null: self.statusline_was_null,
            kept_empty: self.kept_empty.clone(),
            superseded: self.superseded.iter().map(pair).collect(),
        }
    }

    /// Writes the manifest into `claude_dir` atomically.
    pub fn write(&self, claude_dir: &Path) -> Result<()> {
        let path = claude_dir.join(FILE_NAME);
        let mut json = serde_json::to_vec_pretty(self).context("cannot encode the install manifest")?;
        json.push(b'\n');
        fsx::write_atomic(&path, &json, 0o644, fsx::Durability::Durable).map_err(|e| Error::io(&path, e))
    }

    /// Removes the manifest from `claude_dir` (nothing to do when it is missing).
    pub fn remove(claude_dir: &Path) -> Result<()> {
        let path = claude_dir.join(FILE_NAME);
        fsx::remove_if_exists(&path).map_err(|e| Error::io(&path, e))
    }
}

/// Reads one of install's own JSON records (the manifest, the per-user record); a missing file
/// is the empty record, a file that is not `what` an error that says to `fix` it.
pub(super) fn read_record<T: serde::de::DeserializeOwned + Default>(path: &Path, what: &str, fix: &str) -> Result<T> {
    match std::fs::read(path) {
        Ok(bytes) => serde_json::from_slice(&bytes)
            .map_err(|e| Error::invalid(path, format!("is not {what} ({e}); {fix}")).caused_by(e)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(T::default()),
        Err(e) => Err(Error::io(path, e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::install::settings::{StatuslinePolicy, Wiring, merge, unmerge};
    use serde_json::json;

    #[test]
    fn uninstall_takes_out_the_forms_an_interrupted_repointing_left_behind() {
        let old = Wiring::for_binary("/old/bin/baton");
        let new = Wiring::for_binary("/new/bin/baton");
        let mut settings = json!({"model": "opus"});
        let first = merge(&mut settings, &old, StatuslinePolicy::Refuse).unwrap();
        let mut manifest = Manifest::default();
        manifest.record(&first, Some(old.statusline()), &[], None, false);
        manifest.settle();

        let mut repointed = settings.clone();
        let second = merge(&mut repointed, &new, StatuslinePolicy::Refuse).unwrap();
        manifest.record(&second, None, &[], None, false);
        assert_eq!(manifest.statusline, Some(new.statusline()));
        // Killed before settings.json was written: it still runs the old binary.
        let mut interrupted = settings.clone();
        assert!(unmerge(&mut interrupted, &manifest.installed()).kept.is_empty());
        assert_eq!(interrupted, json!({"model": "opus"}));
        // Written: the new forms go, and once settled the old ones are forgotten.
        manifest.settle();
        assert!(manifest.superseded.is_empty());
        assert!(unmerge(&mut repointed, &manifest.installed()).kept.is_empty());
        assert_eq!(repointed, json!({"model": "opus"}));
    }

    #[test]
    fn an_install_recorded_twice_records_each_group_once() {
        let wiring = Wiring::for_binary("/bin/baton");
        let mut settings = json!({});
        let merged = merge(&mut settings, &wiring, StatuslinePolicy::Refuse).unwrap();
        let mut manifest = Manifest::default();
        manifest.record(&merged, Some(wiring.statusline()), &[], None, true);
        let once = manifest.clone();
        manifest.record(&merged, Some(wiring.statusline()), &[], None, true);
        assert_eq!(manifest, once);
    }
}
