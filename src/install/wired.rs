//! What the settings already wire to baton: the statusLine and the hook commands that run
//! it, per settings file. The doctor checks them; hints elsewhere say what to do from them.

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
pub fn wiring_of(events: &[&str], project: Option<&std::path::Path>) -> Vec<std::path::PathBuf> {
    let mut scopes = vec![Scope::User];
    scopes.extend(project.map(|p| Scope::Project(p.to_path_buf())));
    let found: Vec<(std::path::PathBuf, Wired)> = scopes
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
}
