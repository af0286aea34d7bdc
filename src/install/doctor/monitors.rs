//! A second context monitor: GSD's `gsd-context-monitor.js` (GSD 1.x and gsd-core, whose
//! installer wires it to PostToolUse, Stop, SubagentStop and PreCompact) in the same settings
//! as baton's. baton keeps it quiet while baton's monitor is on, so the agent hears one
//! monitor; the doctor still says it is there and how to keep only one.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::super::Scope;
use super::Check;

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

/// The check: none when GSD's monitor is wired nowhere.
pub fn check(project: Option<&Path>) -> Option<Check> {
    let found: Vec<(PathBuf, Vec<String>)> = settings_files(project)
        .into_iter()
        .filter_map(|path| {
            let (value, _) = super::super::read_settings(&path).ok()?;
            let events = gsd_monitor_events(&value);
            (!events.is_empty()).then_some((path, events))
        })
        .collect();
    if found.is_empty() {
        return None;
    }
    let places: Vec<String> = found
        .iter()
        .map(|(path, events)| format!("{} ({})", path.display(), events.join(", ")))
        .collect();
    let places = places.join("; ");
    let batons_on = crate::config::Config::load(project).monitor().enabled;
    Some(if batons_on {
        Check::fail(
            format!("a second context monitor is wired: GSD's gsd-context-monitor.js in {places}"),
            "baton keeps it quiet (the agent gets one warning, baton's), but both run on every tool call; \
             keep one: remove the gsd-context-monitor.js entries from those hooks (GSD's installer adds them \
             again when it updates, so run `baton doctor` after updating GSD), or keep GSD's by setting \
             \"monitor\": {\"enabled\": false} in baton's config",
        )
    } else {
        Check::pass(format!(
            "one context monitor: GSD's gsd-context-monitor.js ({places}); baton's is switched off in its config"
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

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
