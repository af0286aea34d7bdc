//! `baton install` / `uninstall`: wires the statusLine, hooks and slash commands into a
//! settings.json and commands folder, with a timestamped backup and a manifest of exactly
//! what was added, so uninstall can take out that and nothing else.

pub mod binary;
pub mod command_line;
pub mod commands;
pub mod doctor;
pub mod identity;
mod in_use;
pub mod manifest;
pub mod plugins;
mod registry;
pub mod settings;
mod uninstall;
pub mod wired;
pub mod wiring;

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::error::{Error, Result};
use crate::fsx;
use manifest::Manifest;
pub use settings::StatuslinePolicy;
use settings::{MergeError, Wiring};
pub use uninstall::{UninstallReport, uninstall};

/// Where to install: the user's settings or one project's.
#[derive(Debug, Clone, PartialEq)]
pub enum Scope {
    User,
    Project(PathBuf),
}

impl Scope {
    /// The Claude Code folder: `~/.claude` (or `$CLAUDE_CONFIG_DIR`), or `<project>/.claude`.
    pub fn claude_dir(&self) -> Result<PathBuf> {
        match self {
            Scope::User => crate::claude_home::config_dir()
                .ok_or_else(|| Error::Failed("cannot find the home directory; set HOME or CLAUDE_CONFIG_DIR".into())),
            Scope::Project(dir) => Ok(dir.join(".claude")),
        }
    }

    /// `settings.json` in the Claude Code folder.
    pub fn settings_path(&self) -> Result<PathBuf> {
        Ok(self.claude_dir()?.join("settings.json"))
    }
}

/// One install request.
#[derive(Debug, Clone)]
pub struct InstallRequest {
    pub scope: Scope,
    /// The binary the settings will run (absolute).
    pub binary: PathBuf,
    /// Copy this binary to `binary` first (`install --copy`; `binary` is then the per-user place).
    pub copy_from: Option<PathBuf>,
    pub dry_run: bool,
    pub statusline: StatuslinePolicy,
    /// `--force`: a file of the user's where baton's copy goes is kept aside and replaced.
    pub force: bool,
}

/// What an install did (or, with `dry_run`, would do).
#[derive(Debug, Clone, Default)]
pub struct InstallReport {
    pub settings: PathBuf,
    pub backup: Option<PathBuf>,
    pub added: Vec<String>,
    pub already: Vec<String>,
    /// Baton entries that ran another baton binary, re-pointed at this one.
    pub updated: Vec<String>,
    pub commands_written: Vec<PathBuf>,
    /// Files of the user's where a command would go: left alone.
    pub commands_skipped: Vec<PathBuf>,
    /// Command files baton wrote that the user has edited since: left alone.
    pub commands_edited: Vec<PathBuf>,
    pub replaced_statusline: Option<Value>,
    /// Another tool's statusLine, kept: the rest was wired (`--force` replaces it).
    pub statusline_conflict: Option<Value>,
    /// baton's own copy, when the request asked for one.
    pub placed: Option<binary::Placed>,
    /// The enabled baton plugin (`baton@<marketplace>`) that gives the hooks and slash
    /// commands, so that only the statusLine was wired.
    pub plugin: Option<String>,
    /// With the plugin: events whose baton hook settings.json also runs (from an earlier
    /// install), so that it runs twice.
    pub hooks_also_in_settings: Vec<String>,
}

/// A byte order mark some Windows editors put first; JSON parsers refuse it, Claude Code
/// reads past it. baton reads past it too, and keeps it when it writes the file back.
const BOM: char = '\u{feff}';

/// Parses settings text, a leading byte order mark allowed.
fn parse_settings(text: &str) -> serde_json::Result<Value> {
    serde_json::from_str(text.strip_prefix(BOM).unwrap_or(text))
}

/// Reads settings.json: missing or empty is `{}`; anything that is not JSON is refused.
pub fn read_settings(path: &Path) -> Result<(Value, Option<String>)> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((Value::Object(Default::default()), None)),
        Err(e) => return Err(Error::io(path, e)),
    };
    if text.trim_start_matches(BOM).trim().is_empty() {
        return Ok((Value::Object(Default::default()), Some(text)));
    }
    let value = parse_settings(&text).map_err(|e| {
        Error::invalid(
            path,
            format!(
                "is not valid JSON ({e}). Claude Code's settings must be plain JSON (no comments or trailing commas); \
                 fix the file, then run the command again. Nothing was changed."
            ),
        )
        .caused_by(e)
    })?;
    Ok((value, Some(text)))
}

/// Serialises settings in the file's own indentation (2 spaces when new), with a final
/// newline, and the byte order mark the file began with.
pub fn render_settings(value: &Value, original: Option<&str>) -> String {
    let indent = original.and_then(detect_indent).unwrap_or_else(|| "  ".to_owned());
    let mut out = Vec::new();
    let formatter = serde_json::ser::PrettyFormatter::with_indent(indent.as_bytes());
    let mut ser = serde_json::Serializer::with_formatter(&mut out, formatter);
    serde::Serialize::serialize(value, &mut ser).expect("a JSON value always serialises");
    let mut text = String::from_utf8(out).expect("serde_json writes UTF-8");
    if original.is_none_or(|o| o.ends_with('\n')) {
        text.push('\n');
    }
    if original.is_some_and(|o| o.starts_with(BOM)) {
        text.insert(0, BOM);
    }
    text
}

/// The indentation of the first indented line (spaces or tabs).
fn detect_indent(text: &str) -> Option<String> {
    text.lines().skip(1).find_map(|line| {
        let indent: String = line.chars().take_while(|c| *c == ' ' || *c == '\t').collect();
        (!indent.is_empty()).then_some(indent)
    })
}

/// The file a settings path really names: a symlink (dotfiles) is followed to its target, so
/// writes go through to it and the link stays a link. A path that is no link is itself.
pub fn real_path(path: &Path) -> PathBuf {
    let mut current = path.to_path_buf();
    for _ in 0..40 {
        match std::fs::read_link(&current) {
            Ok(target) => {
                current = match current.parent() {
                    Some(dir) if target.is_relative() => dir.join(target),
                    _ => target,
                };
            }
            Err(_) => return current,
        }
    }
    current
}

/// Writes `text` to `path` atomically, keeping a timestamped backup of the old file.
/// `path` must be the real file (see `real_path`): the temp file and the backup go next to it.
fn write_with_backup(path: &Path, text: &str, original: Option<&str>) -> Result<Option<PathBuf>> {
    let backup = backup(path, original)?;
    write_settings(path, text)?;
    Ok(backup)
}

/// Saves `original` (the settings' text before a change) as `<name>.baton-backup-<time>` next
/// to `path`; `None` when there was no file.
fn backup(path: &Path, original: Option<&str>) -> Result<Option<PathBuf>> {
    let Some(old) = original else {
        return Ok(None);
    };
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    let stamp = chrono::Utc::now().format("%Y%m%dT%H%M%S%.3fZ");
    let name = format!(
        "{}.baton-backup-{stamp}",
        path.file_name().and_then(|n| n.to_str()).unwrap_or("settings.json")
    );
    let backup = dir.join(name);
    fsx::write_atomic(&backup, old.as_bytes(), 0o600, fsx::Durability::Durable).map_err(|e| Error::io(&backup, e))?;
    Ok(Some(backup))
}

/// Replaces the settings file atomically; an existing one keeps its mode and owner.
fn write_settings(path: &Path, text: &str) -> Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    fsx::write_atomic_keeping_mode(path, text.as_bytes(), 0o644, fsx::Durability::Durable)
        .map_err(|e| Error::io(path, e))
}

/// Merges baton into the settings and writes the slash commands; records what it added.
pub fn install(request: &InstallRequest) -> Result<InstallReport> {
    // One install or uninstall at a time, from the first read to the last write.
    let mut transaction = match request.dry_run {
        true => None,
        false => Some(registry::Transaction::begin()?),
    };
    let settings_path = request.scope.settings_path()?;
    let real_settings = real_path(&settings_path);
    let claude_dir = request.scope.claude_dir()?;
    let (mut value, original) = read_settings(&real_settings)?;
    ensure_writable(&real_settings)?;
    let mut manifest = Manifest::read(&claude_dir)?;
    let binary = request
        .binary
        .to_str()
        .ok_or_else(|| Error::Failed("baton's path is not UTF-8; install it elsewhere".into()))?;
    // The baton plugin, where enabled, gives the hooks and slash commands: only the statusLine
    // is left to wire (a plugin cannot set it).
    let plugin = plugins::enabled_for(&request.scope, &value);
    let mut wiring = Wiring::for_binary(binary);
    wiring.hooks = plugin.is_none();
    let also_in_settings: Vec<String> = match &plugin {
        Some(_) => wired::Wired::from_settings(&value)
            .hooks
            .into_iter()
            .map(|(event, _)| event.to_owned())
            .collect(),
        None => Vec::new(),
    };
    let shape_error = |what: String| {
        Error::invalid(
            &settings_path,
            format!("{what}; fix it, then run baton install again. Nothing was changed."),
        )
    };
    let mut statusline_conflict = None;
    // An interrupted `install --force` already had the consent to replace this statusLine.
    let consented = manifest.in_progress
        && manifest.replaced_statusline.is_some()
        && manifest.replaced_statusline.as_ref() == value.get("statusLine");
    let policy = match request.statusline {
        StatuslinePolicy::Refuse | StatuslinePolicy::Keep if consented => StatuslinePolicy::Replace,
        policy => policy,
    };
    let merged = match settings::merge(&mut value, &wiring, policy) {
        Ok(merged) => merged,
        Err(MergeError::Shape(what)) => return Err(shape_error(what)),
        // Another tool's statusLine is kept and the rest wired, as a dry run says it would be;
        // the report names it and --force.
        Err(MergeError::ForeignStatusline(current)) if request.dry_run || policy == StatuslinePolicy::Keep => {
            statusline_conflict = Some(current);
            settings::merge(&mut value, &wiring, StatuslinePolicy::Skip).map_err(|e| match e {
                MergeError::Shape(what) => shape_error(what),
                MergeError::ForeignStatusline(_) => Error::Failed("statusLine merge".into()),
            })?
        }
        Err(MergeError::ForeignStatusline(current)) => {
            return Err(Error::Failed(format!(
                "{} already has a statusLine from another tool ({}).\nRun `baton install --force` to replace it \
                 (`baton uninstall` puts it back), or `baton install --no-statusline` to keep it and wire only the \
                 hooks. Nothing was changed.",
                settings_path.display(),
                current["command"].as_str().unwrap_or("unknown command")
            )));
        }
    };
    let mut report = InstallReport {
        settings: settings_path.clone(),
        already: merged.already.clone(),
        replaced_statusline: merged.replaced_statusline.clone(),
        statusline_conflict,
        ..InstallReport::default()
    };
    report.added = merged
        .added_groups
        .iter()
        .map(|(event, _)| format!("hooks.{event}"))
        .collect();
    if merged.statusline_added {
        report.added.insert(0, "statusLine".to_owned());
    }
    report.updated = merged
        .repointed
        .iter()
        .map(|(what, _, _)| {
            if what == "statusLine" {
                what.clone()
            } else {
                format!("hooks.{what}")
            }
        })
        .collect();
    report.updated.dedup();
    report.plugin = plugin.clone();
    report.hooks_also_in_settings = also_in_settings;
    let commands_dir = claude_dir.join("commands");
    let planned = match plugin {
        Some(_) => Vec::new(),
        None => commands::plan(&commands_dir, binary, &manifest),
    };
    let left = |action| {
        planned
            .iter()
            .filter(|c| c.action == action)
            .map(|c| c.path.clone())
            .collect::<Vec<_>>()
    };
    report.commands_skipped = left(commands::Action::Foreign);
    report.commands_edited = left(commands::Action::Edited);
    // baton's own copy goes in before anything runs it: the settings and commands name it.
    let placement = match &request.copy_from {
        Some(source) => Some(binary::prepare(
            source,
            &request.binary,
            request.force,
            request.dry_run,
        )?),
        None => None,
    };
    report.placed = placement.as_ref().map(|p| p.placed.clone());
    let Some(transaction) = transaction.as_mut() else {
        report.commands_written = left(commands::Action::Write);
        return Ok(report);
    };
    // The folders this install creates, outermost first, so uninstall can take them out.
    let created_dirs: Vec<PathBuf> = [
        claude_dir.clone(),
        commands_dir.clone(),
        commands_dir.join(commands::NAMESPACE),
    ]
    .into_iter()
    .filter(|d| std::fs::symlink_metadata(d).is_err())
    .collect();
    let changed_settings = !merged.added_groups.is_empty() || merged.statusline_added || !merged.repointed.is_empty();
    let to_write: Vec<(PathBuf, String)> = planned
        .iter()
        .filter(|c| c.action == commands::Action::Write)
        .map(|c| (c.path.clone(), commands::hash(&c.contents)))
        .collect();
    let copy_recorded = request.copy_from.is_none() || manifest.binary.as_ref() == Some(&request.binary);
    let copy_changed = placement.as_ref().is_some_and(|p| p.placed.changed);
    // The user's record names this Claude folder and the copy before either changes.
    let mut registered = transaction.registry.add_scope(&claude_dir);
    if request.copy_from.is_some() {
        registered |= transaction.registry.add_copy(&request.binary);
    }
    if registered {
        transaction.save()?;
    }
    if !changed_settings && to_write.is_empty() && !manifest.in_progress && copy_recorded && !copy_changed {
        return Ok(report);
    }
    // The order makes every crash recoverable: the backup, then the manifest saying what is
    // about to be added (in progress; the copy too), then the copy, settings.json and the
    // commands, then the manifest again, settled. Killed anywhere, the next `install` completes
    // it and `uninstall` undoes it.
    if changed_settings {
        report.backup = backup(&real_settings, original.as_deref())?;
    }
    manifest.record(
        &merged,
        merged.statusline_added.then(|| wiring.statusline()),
        &to_write,
        report.backup.as_deref(),
        original.is_none() && changed_settings,
    );
    manifest.record_dirs(&created_dirs);
    if request.copy_from.is_some() {
        manifest.binary = Some(request.binary.clone());
    }
    let journal = !manifest.is_empty();
    if journal {
        manifest.in_progress = true;
        std::fs::create_dir_all(&claude_dir).map_err(|e| Error::io(&claude_dir, e))?;
        manifest.write(&claude_dir)?;
    }
    if let Some(placement) = placement {
        report.placed = Some(placement.apply()?);
    }
    if changed_settings {
        write_settings(&real_settings, &render_settings(&value, original.as_deref()))?;
    }
    let written = commands::write(&planned)?;
    report.commands_written = written.into_iter().map(|(p, _)| p).collect();
    if journal {
        manifest.settle();
        manifest.write(&claude_dir)?;
    }
    Ok(report)
}

/// Refuses early, before any write, when the settings file or its folder is read-only
/// (even for root: a read-only settings file is a statement to respect).
fn ensure_writable(path: &Path) -> Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let read_only = |p: &Path| std::fs::metadata(p).is_ok_and(|m| m.permissions().readonly());
    if read_only(path) || read_only(dir) {
        return Err(Error::Failed(format!(
            "{} is read-only; make it writable (chmod u+w) if baton should change it, or pick another scope. \
             Nothing was changed.",
            if read_only(path) { path } else { dir }.display()
        )));
    }
    Ok(())
}
