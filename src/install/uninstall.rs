//! `baton uninstall`: takes out exactly what the manifest says install added, and gives back
//! the original settings bytes when nothing else changed since.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use serde_json::Value;

use super::identity::{self, Found};
use super::manifest::{self, Manifest};
use super::registry::{Registry, Transaction};
use super::{
    BOM, Scope, commands, ensure_writable, parse_settings, read_settings, real_path, render_settings, settings,
    write_with_backup,
};
use crate::error::{Error, Result};
use crate::fsx;

/// What uninstall did.
#[derive(Debug, Clone, Default)]
pub struct UninstallReport {
    pub settings: PathBuf,
    pub removed: Vec<String>,
    /// baton's entries left in place because they changed since install.
    pub kept: Vec<String>,
    /// The settings file went (install had created it, and nothing else was added since).
    pub settings_deleted: bool,
    pub commands_removed: Vec<PathBuf>,
    pub commands_kept: Vec<PathBuf>,
    /// baton's own copy that install put at the per-user place, removed.
    pub binary_removed: Option<PathBuf>,
    /// That copy was running and is renamed aside instead (Windows): remove it afterwards.
    pub binary_aside: Option<PathBuf>,
    /// The copy the manifest names, left where it is, and why.
    pub binary_kept: Option<(PathBuf, String)>,
}

/// Takes out exactly what the manifest says install added.
pub fn uninstall(scope: &Scope, dry_run: bool) -> Result<UninstallReport> {
    // One install or uninstall at a time, from the first read to the last write.
    let mut transaction = match dry_run {
        true => None,
        false => Some(Transaction::begin()?),
    };
    let claude_dir = scope.claude_dir()?;
    let settings_path = scope.settings_path()?;
    let real_settings = real_path(&settings_path);
    let manifest = Manifest::read(&claude_dir)?;
    if manifest.is_empty() {
        return Err(Error::Failed(format!(
            "baton is not installed in {} (no {} there); nothing to remove.",
            claude_dir.display(),
            manifest::FILE_NAME
        )));
    }
    let (mut value, original) = read_settings(&real_settings)?;
    let installed = manifest.installed();
    let unmerged = settings::unmerge(&mut value, &installed);
    let is_link = std::fs::symlink_metadata(&settings_path).is_ok_and(|m| m.file_type().is_symlink());
    let restored = restored_original(&manifest, &value);
    let mut report = UninstallReport {
        settings: settings_path.clone(),
        removed: unmerged.removed,
        kept: unmerged.kept,
        // Nothing else changed since install: a file install created goes, unless it has
        // since become a link's target.
        settings_deleted: original.is_some()
            && manifest.created_settings
            && !is_link
            && restored.as_deref().is_some_and(|t| t.trim().is_empty()),
        ..UninstallReport::default()
    };
    let (remove, keep) = commands::removable(&manifest);
    report.commands_removed = remove.clone();
    report.commands_kept = keep;
    let registry = match &transaction {
        Some(t) => t.registry.clone(),
        None => Registry::load()?,
    };
    let mut removable_copy = None;
    if let Some(copy) = &manifest.binary {
        match copy_fate(copy, &registry, (&settings_path, &value), &claude_dir) {
            Fate::Remove => {
                report.binary_removed = Some(copy.clone());
                removable_copy = Some(copy.clone());
            }
            Fate::Trusted => removable_copy = Some(copy.clone()),
            Fate::Keep(why) => report.binary_kept = Some((copy.clone(), why)),
        }
    }
    let Some(transaction) = transaction.as_mut() else {
        return Ok(report);
    };
    if original.is_some() {
        ensure_writable(&real_settings)?;
        match restored {
            _ if report.settings_deleted => {
                fsx::remove_if_exists(&settings_path).map_err(|e| Error::io(&settings_path, e))?;
            }
            // Nothing else changed since install: give back the original bytes, and with them
            // the backup install took is the file again, so it goes (a cycle leaves none).
            Some(text) => {
                super::write_settings(&real_settings, &text)?;
                if let Some(backup) = &manifest.original_backup {
                    let _ = fsx::remove_if_exists(backup);
                }
            }
            None => {
                write_with_backup(
                    &real_settings,
                    &render_settings(&value, original.as_deref()),
                    original.as_deref(),
                )?;
            }
        }
    }
    for path in &remove {
        fsx::remove_if_exists(path).map_err(|e| Error::io(path, e))?;
    }
    commands::remove_empty_dir(&claude_dir.join("commands"));
    if let Some(binary) = &report.binary_removed {
        report.binary_aside = fsx::remove_program(binary).map_err(|e| Error::io(binary, e))?;
        transaction.registry.remove_copy(binary);
    }
    // A copy killed half-way through its write left its temp file beside it; the lock keeps
    // any other install from writing there now.
    if let Some(dir) = removable_copy.as_deref().and_then(Path::parent) {
        fsx::remove_temp_files(dir, SystemTime::now(), Duration::ZERO);
    }
    transaction.registry.remove_scope(&claude_dir);
    transaction.save()?;
    Manifest::remove(&claude_dir)?;
    // The folders install created, innermost first, when nothing else is in them.
    for dir in manifest.created_dirs.iter().rev() {
        let _ = std::fs::remove_dir(dir);
    }
    Ok(report)
}

/// The settings text from before the first install, when the settings now (with baton taken
/// out) say the same thing; `""` when the file did not exist.
fn restored_original(manifest: &Manifest, now: &Value) -> Option<String> {
    let text = match &manifest.original_backup {
        Some(backup) => std::fs::read_to_string(backup).ok()?,
        None if manifest.created_settings => String::new(),
        None => return None,
    };
    let before: Value = if text.trim_start_matches(BOM).trim().is_empty() {
        Value::Object(Default::default())
    } else {
        parse_settings(&text).ok()?
    };
    (before == *now).then_some(text)
}

/// What becomes of the copy a manifest names.
enum Fate {
    /// A baton build at baton's place that nothing runs any more: it goes.
    Remove,
    /// At baton's place, with nothing there to remove (a kill may have left a temp file).
    Trusted,
    /// Left where it is, for the reason given.
    Keep(String),
}

/// A manifest is data anyone can commit to a repository: the copy it names is removed only
/// at a place baton puts its copy (the per-user place, or one the user's own record says baton
/// used), only when it is a baton build (read, never run), and only when no settings file
/// baton knows of, nor the plugin, still runs it. `current` is this scope's settings as
/// uninstall leaves them.
fn copy_fate(copy: &Path, registry: &Registry, current: (&Path, &Value), claude_dir: &Path) -> Fate {
    let at_batons_place = super::binary::destination().is_ok_and(|d| d == copy) || registry.placed(copy);
    if !at_batons_place {
        return Fate::Keep("it is not where baton puts its copy".into());
    }
    match identity::examine(copy) {
        Ok(Found::Nothing) => return Fate::Trusted,
        Ok(Found::Baton(_)) => {}
        Ok(Found::Other(what)) => return Fate::Keep(format!("it is {what}")),
        Err(e) => return Fate::Keep(format!("it cannot be read ({e})")),
    }
    let mut known: Vec<PathBuf> = registry.scopes.iter().filter(|d| *d != claude_dir).cloned().collect();
    known.extend(Scope::User.claude_dir().ok());
    known.push(claude_dir.to_path_buf());
    let runners = super::in_use::runners(copy, current, &known);
    match runners.is_empty() {
        true => Fate::Remove,
        false => Fate::Keep(format!("it is still run by {}", runners.join(", "))),
    }
}
