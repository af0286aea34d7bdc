//! The baton plugin where Claude Code installed it: its hooks (`hooks/hooks.json`, run with
//! `CLAUDE_PLUGIN_ROOT` set to the plugin's directory) count as wiring, and its shim is probed.

use std::path::PathBuf;

use serde_json::Value;

use crate::install::wired::Wired;

/// One installed copy of the baton plugin.
pub struct InstalledPlugin {
    /// `baton@<marketplace>`.
    pub id: String,
    pub root: PathBuf,
    /// Its hooks that run baton.
    pub wired: Wired,
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
            });
        }
    }
    found
}
