//! What the settings already wire to baton: the statusLine and the hook commands that run
//! it, per settings file, and where GSD's context monitor is wired beside. The doctor checks
//! them; hints elsewhere say what to do from them.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::Scope;
use super::command_line::is_baton_command;
use super::settings::EVENTS;
use crate::error::Result;

/// baton's entries in one settings.json.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Wired {
    /// The statusLine command, when it runs baton.
    pub statusline: Option<String>,
    /// (event, command) of every hook command that runs baton, for the events baton handles.
    pub hooks: Vec<(&'static str, String)>,
}

impl Wired {
    /// Reads baton's entries from parsed settings.
    pub fn from_settings(settings: &Value) -> Self {
        let statusline = settings["statusLine"]["command"]
            .as_str()
            .filter(|c| is_baton_command(c))
            .map(str::to_owned);
        let mut hooks = Vec::new();
        for (event, _) in EVENTS {
            let groups = settings["hooks"][*event]
                .as_array()
                .map(Vec::as_slice)
                .unwrap_or_default();
            for hook in groups.iter().filter_map(|g| g["hooks"].as_array()).flatten() {
                if let Some(command) = hook["command"].as_str().filter(|c| is_baton_command(c)) {
                    hooks.push((*event, command.to_owned()));
                }
            }
        }
        Self { statusline, hooks }
    }

    /// Reads baton's entries from `scope`'s settings.json (none when it does not exist).
    pub fn read(scope: &Scope) -> Result<Self> {
        let (value, _) = super::read_settings(&scope.settings_path()?)?;
        Ok(Self::from_settings(&value))
    }

    /// Whether `event` runs baton.
    pub fn has_hook(&self, event: &str) -> bool {
        self.hooks.iter().any(|(e, _)| *e == event)
    }
}

/// The settings files that wire every one of `events` to baton, among the user's and the
/// project's; empty when some event is wired nowhere (or a file cannot be read).
pub fn wiring_of(events: &[&str], project: Option<&Path>) -> Vec<PathBuf> {
    let mut scopes = vec![Scope::User];
    scopes.extend(project.map(|p| Scope::Project(p.to_path_buf())));
    let found: Vec<(PathBuf, Wired)> = scopes
        .iter()
        .filter_map(|s| Some((s.settings_path().ok()?, Wired::read(s).ok()?)))
        .collect();
    let all = events.iter().all(|e| found.iter().any(|(_, wired)| wired.has_hook(e)));
    if !all {
        return Vec::new();
    }
    found
        .into_iter()
        .filter(|(_, w)| events.iter().any(|e| w.has_hook(e)))
        .map(|(path, _)| path)
        .collect()
}

/// The name GSD's monitor is found by in a hook command.
const GSD_MONITOR: &str = "gsd-context-monitor";

/// The settings files Claude Code reads hooks from: the user's, the project's and its local one.
fn settings_files(project: Option<&Path>) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = Scope::User.settings_path().into_iter().collect();
    if let Some(dir) = project {
        files.push(dir.join(".claude/settings.json"));
        files.push(dir.join(".claude/settings.local.json"));
    }
    files
}

/// The events whose hooks run GSD's monitor in parsed settings.
fn gsd_monitor_events(settings: &Value) -> Vec<String> {
    let Some(hooks) = settings["hooks"].as_object() else {
        return Vec::new();
    };
    hooks
        .iter()
        .filter(|(_, groups)| {
            let commands = groups
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|g| g["hooks"].as_array())
                .flatten();
            commands
                .filter_map(|hook| hook["command"].as_str())
                .any(|command| command.contains(GSD_MONITOR))
        })
        .map(|(event, _)| event.clone())
        .collect()
}

/// The context monitors the settings files of a project (the user's, the project's, its local
/// one) wire, each file read once.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Monitors {
    /// Each settings file that runs GSD's `gsd-context-monitor.js`, with the events it runs on.
    pub gsd: Vec<(PathBuf, Vec<String>)>,
    /// Whether baton's monitor runs on PostToolUse: a settings file wires it, or this process
    /// is a hook of the baton plugin (whose hooks.json wires every event together).
    pub batons: bool,
}

impl Monitors {
    /// Reads the settings files for `project` (the user's alone when `None`).
    pub fn read(project: Option<&Path>) -> Self {
        let mut monitors = Self {
            batons: std::env::var_os("CLAUDE_PLUGIN_ROOT").is_some(),
            ..Self::default()
        };
        for path in settings_files(project) {
            let Ok((value, _)) = super::read_settings(&path) else {
                continue;
            };
            monitors.batons |= Wired::from_settings(&value).has_hook("PostToolUse");
            let events = gsd_monitor_events(&value);
            if !events.is_empty() {
                monitors.gsd.push((path, events));
            }
        }
        monitors
    }

    /// Whether GSD's monitor runs on PostToolUse beside baton's.
    pub fn both_on_tool_use(&self) -> bool {
        self.batons
            && self
                .gsd
                .iter()
                .any(|(_, events)| events.iter().any(|e| e == "PostToolUse"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_batons_entries_and_nothing_else() {
        let settings = json!({"statusLine": {"command": "/u/bin/baton statusline"}, "hooks": {
            "PostToolUse": [{"matcher": "*", "hooks": [{"command": "node gsd.js"}, {"command": "baton hook"}]}],
            "SubagentStop": [{"hooks": [{"command": "'/a b/baton' hook"}]}],
            "Stop": [{"hooks": [{"command": "baton hook"}]}]}});
        let wired = Wired::from_settings(&settings);
        assert_eq!(wired.statusline.as_deref(), Some("/u/bin/baton statusline"));
        assert_eq!(
            wired.hooks,
            vec![
                ("PostToolUse", "baton hook".to_owned()),
                ("SubagentStop", "'/a b/baton' hook".to_owned())
            ]
        );
        assert!(wired.has_hook("SubagentStop") && !wired.has_hook("SubagentStart"));
        assert_eq!(Wired::from_settings(&json!([1])), Wired::default());
    }

    #[test]
    fn finds_gsds_monitor_on_every_event_it_is_wired_to() {
        let command = "\"$(command -v node)\" \"/home/u/.claude/hooks/gsd-context-monitor.js\"";
        let entry = json!([{"hooks": [{"type": "command", "command": command}]}]);
        let settings = json!({"hooks": {
            "PostToolUse": [{"matcher": "Bash", "hooks": [{"command": "baton hook"}]},
                            {"matcher": "Bash|Edit", "hooks": [{"command": command}]}],
            "Stop": entry, "PreCompact": entry,
            "SessionStart": [{"hooks": [{"command": "node gsd-check-update.js"}]}]}});
        let mut events = gsd_monitor_events(&settings);
        events.sort();
        assert_eq!(events, ["PostToolUse", "PreCompact", "Stop"]);
        assert!(gsd_monitor_events(&json!({"hooks": {"PostToolUse": "x"}})).is_empty());
        assert!(gsd_monitor_events(&json!([])).is_empty());
    }
}
