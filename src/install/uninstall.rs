//! `baton uninstall`: takes out exactly what the manifest says install added, and gives back
//! the original settings bytes when nothing else changed since.

use std::path::PathBuf;

use serde_json::Value;

use super::manifest::{self, Manifest};
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
}

/// Takes out exactly what the manifest says install added.
pub fn uninstall(scope: &Scope, dry_run: bool) -> Result<UninstallReport> {
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
    report.binary_removed = manifest.binary.clone().filter(|b| b.is_file());
    if dry_run {
        return Ok(report);
    }
    if original.is_some() {
        ensure_writable(&real_settings)?;
        match restored {
            _ if report.settings_deleted => {
                fsx::remove_if_exists(&settings_path).map_err(|e| Error::io(&settings_path, e))?;
            }
            // Nothing else changed since install: give back the original bytes.
            Some(text) => {
                write_with_backup(&real_settings, &text, original.as_deref())?;
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
    }
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
