//! The baton plugin where Claude Code installed it: its hooks (`hooks/hooks.json`, run with
//! `CLAUDE_PLUGIN_ROOT` set to the plugin's directory) count as wiring (doctor probes its
//! shim), and where it is enabled, `baton install` leaves the hooks and slash commands to it.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::Scope;
use crate::install::wired::Wired;

/// One installed copy of the baton plugin.
pub struct InstalledPlugin {
    /// `baton@<marketplace>`.
    pub id: String,
    pub root: PathBuf,
    /// Its hooks that run baton.
    pub wired: Wired,
    /// `user`, `project` or `local` (Claude Code's install scope).
    pub scope: String,
    /// The project a `project` or `local` install is for.
    pub project: Option<PathBuf>,
}

/// The id of a baton plugin (`baton@<marketplace>`) that gives `scope` its hooks and slash
/// commands: installed for the user and enabled in the user's settings (`enabledPlugins`), or,
/// for a project, installed for that project and enabled in `scope_settings` (its settings).
pub fn enabled_for(scope: &Scope, scope_settings: &Value) -> Option<String> {
    let user_settings = match scope {
        Scope::User => Some(scope_settings.clone()),
        Scope::Project(_) => Scope::User
            .settings_path()
            .ok()
            .and_then(|p| super::read_settings(&p).ok())
            .map(|(value, _)| value),
    };
    let enabled = |settings: &Value, id: &str| settings["enabledPlugins"][id] == Value::Bool(true);
    installed().into_iter().find_map(|plugin| {
        let for_user = plugin.scope == "user" && user_settings.as_ref().is_some_and(|s| enabled(s, &plugin.id));
        let for_project = match (scope, &plugin.project) {
            (Scope::Project(dir), Some(project)) => same_dir(dir, project) && enabled(scope_settings, &plugin.id),
            _ => false,
        };
        (for_user || for_project).then_some(plugin.id)
    })
}

fn same_dir(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

/// Every installed copy of the baton plugin, from Claude Code's `installed_plugins.json`
/// (version 2: `{"plugins": {"baton@m": [{"installPath": …}]}}`; version 1: one entry per id).
pub fn installed() -> Vec<InstalledPlugin> {
    let Some(file) = crate::claude_home::installed_plugins_file() else {
        return Vec::new();
    };
    let Some(list) = crate::fsx::read_regular(&file, 4 * 1024 * 1024)
        .ok()
        .and_then(|bytes| serde_json::from_slice::<Value>(&bytes).ok())
    else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for (id, entries) in list["plugins"].as_object().into_iter().flatten() {
        if id.split('@').next() != Some("baton") {
            continue;
        }
        let entries = match entries {
            Value::Array(all) => all.iter().collect(),
            one => vec![one],
        };
        for entry in entries {
            let Some(root) = entry["installPath"].as_str().map(PathBuf::from) else {
                continue;
            };
            let hooks = crate::fsx::read_regular(&root.join("hooks").join("hooks.json"), 1024 * 1024)
                .ok()
                .and_then(|bytes| serde_json::from_slice::<Value>(&bytes).ok())
                .unwrap_or_default();
            found.push(InstalledPlugin {
                id: id.clone(),
                wired: Wired::from_settings(&hooks),
                root,
                scope: entry["scope"].as_str().unwrap_or("user").to_owned(),
                project: entry["projectPath"].as_str().map(PathBuf::from),
            });
        }
    }
    found
}
