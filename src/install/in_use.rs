//! Whether a copy of baton is still run, so uninstall never deletes a binary that wiring
//! still calls: by a settings file baton knows of (the user's, every Claude folder it was
//! installed into, and their `settings.local.json`) or by the baton plugin, whose shim runs the
//! copy at the per-user place first.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::command_line::split_program;

/// What still runs `binary`, each said for the user (a settings file's path, or the plugin).
/// `current` is the settings file being changed, as it will be written; `known` the Claude
/// folders whose settings are read from disk.
pub fn runners(binary: &Path, current: (&Path, &Value), known: &[PathBuf]) -> Vec<String> {
    let mut found = Vec::new();
    let binary = &*binary.to_string_lossy();
    if runs(current.1, binary) {
        found.push(current.0.display().to_string());
    }
    let mut files: Vec<PathBuf> = Vec::new();
    for dir in known {
        for name in ["settings.json", "settings.local.json"] {
            let path = dir.join(name);
            if path != current.0 && !files.contains(&path) {
                files.push(path);
            }
        }
    }
    for path in files {
        let Ok((value, _)) = super::read_settings(&super::real_path(&path)) else {
            continue;
        };
        if runs(&value, binary) {
            found.push(path.display().to_string());
        }
    }
    let at_batons_place = super::binary::destination().is_ok_and(|d| same_program(&d.to_string_lossy(), binary));
    if at_batons_place && let Some(plugin) = super::plugins::installed().first() {
        found.push(format!("the baton plugin ({})", plugin.id));
    }
    found
}

/// Whether any `command` in the settings (statusLine, hooks, whatever the shape) runs `binary`.
fn runs(settings: &Value, binary: &str) -> bool {
    match settings {
        Value::Object(map) => map.iter().any(|(key, value)| match value {
            Value::String(command) if key == "command" => {
                split_program(command).is_some_and(|(program, _)| same_program(&program, binary))
            }
            other => runs(other, binary),
        }),
        Value::Array(items) => items.iter().any(|v| runs(v, binary)),
        _ => false,
    }
}

/// Whether a program word names `binary`: the same path, with Windows' separators and case
/// taken as Windows takes them.
fn same_program(program: &str, binary: &str) -> bool {
    if cfg!(windows) {
        program
            .replace('\\', "/")
            .eq_ignore_ascii_case(&binary.replace('\\', "/"))
    } else {
        program == binary
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_command_anywhere_in_the_settings_that_runs_the_binary_counts() {
        let binary = "/home/jane doe/.local/bin/baton";
        let hook = json!({"hooks": {"PostToolUse": [{"hooks": [
            {"type": "command", "command": "'/home/jane doe/.local/bin/baton' hook", "timeout": 30}]}]}});
        assert!(runs(&hook, binary));
        let statusline = json!({"statusLine": {"command": "\"/home/jane doe/.local/bin/baton\" statusline"}});
        assert!(runs(&statusline, binary));
        let other = json!({"statusLine": {"command": "/usr/local/bin/baton statusline"},
            "hooks": {"Stop": [{"hooks": [{"command": "echo /home/jane doe/.local/bin/baton"}]}]}});
        assert!(!runs(&other, binary));
    }
}
