//! Merging baton's wiring into a Claude Code settings.json value and taking it out again.
//! Pure functions on `serde_json::Value` (key order preserved); files live in `install/mod.rs`.

use serde_json::{Map, Value, json};

use super::command_line::{BatonCommand, is_baton_command, split_program};
use crate::platform::Family;
use crate::platform::shell::{self, Shell};

/// Hook events baton handles, with the matcher of its group (`None`: the event has no matcher).
pub const EVENTS: &[(&str, Option<&str>)] = &[
    // Every tool spends context (Read and Grep most of all), so the monitor sees them all.
    ("PostToolUse", Some("*")),
    ("SessionStart", None),
    ("PreCompact", None),
    ("SubagentStart", None),
    ("SubagentStop", None),
];

/// Seconds Claude Code gives each baton hook.
pub const HOOK_TIMEOUT: u64 = 10;

/// The command lines baton's entries run, for one binary path.
#[derive(Debug, Clone, PartialEq)]
pub struct Wiring {
    /// The binary as the shell should see it (quoted when needed).
    pub program: String,
    /// The binary's path as a command line names it once unquoted (forward slashes on Windows).
    pub path: String,
    /// The hook entries' `"shell"`, when the program is written for a shell that must be pinned.
    pub shell_field: Option<&'static str>,
}

impl Wiring {
    /// Wiring for the binary at `path` (absolute), for the shell Claude Code runs commands in here.
    pub fn for_binary(path: &str) -> Self {
        Self::for_binary_on(path, Family::CURRENT, shell::command_shell())
    }

    /// Wiring for the binary at `path` on `family`, for commands run by `shell`.
    pub fn for_binary_on(path: &str, family: Family, shell: Shell) -> Self {
        let program = shell::program_word(path, family, shell);
        let path = match family {
            Family::Unix => path.to_owned(),
            Family::Windows => path.replace('\\', "/"),
        };
        // A bare word runs in every shell; a quoted one only in the shell it was quoted for.
        let shell_field = if program == path { None } else { shell.hook_field() };
        Self {
            program,
            path,
            shell_field,
        }
    }

    /// The `statusLine` entry that runs this binary.
    pub fn statusline(&self) -> Value {
        json!({"type": "command", "command": format!("{} statusline", self.program), "padding": 0})
    }

    /// The hook group baton adds for `event`.
    pub fn hook_group(&self, matcher: Option<&str>) -> Value {
        let mut hook = json!({"type": "command", "command": format!("{} hook", self.program), "timeout": HOOK_TIMEOUT});
        if let Some(shell) = self.shell_field {
            hook["shell"] = json!(shell);
        }
        match matcher {
            Some(m) => json!({"matcher": m, "hooks": [hook]}),
            None => json!({"hooks": [hook]}),
        }
    }
}

/// `command` re-pointed at `wiring`'s binary when it runs baton from another path; `None`
/// when it already runs this one, is not baton's, or names no path (bare `baton`, the plugin form).
fn repointed(command: &str, wiring: &Wiring) -> Option<String> {
    let parsed = BatonCommand::parse(command)?;
    if parsed.is_plugin_form() || !parsed.program.contains(['/', '\\']) || parsed.program == wiring.path {
        return None;
    }
    let (_, rest) = split_program(command)?;
    Some(format!("{} {rest}", wiring.program))
}

/// Whether a hook group holds a baton command.
fn group_has_baton(group: &Value) -> bool {
    group["hooks"].as_array().is_some_and(|hooks| {
        hooks
            .iter()
            .any(|h| h["command"].as_str().is_some_and(is_baton_command))
    })
}

/// What merging changed, for the report and the install manifest.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Merge {
    /// (event, group) pairs added.
    pub added_groups: Vec<(String, Value)>,
    /// Events already wired to baton.
    pub already: Vec<String>,
    pub statusline_added: bool,
    /// The statusLine that was replaced (only with consent).
    pub replaced_statusline: Option<Value>,
    pub created_hooks_key: bool,
    /// Baton entries that ran another baton binary, re-pointed at this one: (what, before,
    /// after), where `what` is `statusLine` (the whole value) or a hook event (its group).
    pub repointed: Vec<(String, Value, Value)>,
}

/// Why a merge cannot go ahead.
#[derive(Debug, Clone, PartialEq)]
pub enum MergeError {
    /// The settings value or one of its parts has the wrong shape.
    Shape(String),
    /// Another tool's statusLine is set and replacing it was not allowed.
    ForeignStatusline(Value),
}

/// What to do about the statusLine.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum StatuslinePolicy {
    /// Set baton's; another tool's stays and the merge stops with a message.
    Refuse,
    /// Set baton's, replacing another tool's (uninstall puts it back).
    Replace,
    /// Leave the statusLine alone: hooks only (the monitor then reads transcripts itself).
    Skip,
}

/// Adds baton's statusLine and hook groups to `settings`, keeping every existing key and
/// entry, adding nothing that is already there.
pub fn merge(settings: &mut Value, wiring: &Wiring, policy: StatuslinePolicy) -> Result<Merge, MergeError> {
    let root = settings
        .as_object_mut()
        .ok_or_else(|| MergeError::Shape("the file is not a JSON object".into()))?;
    let mut merge = Merge::default();
    match root.get("statusLine") {
        _ if policy == StatuslinePolicy::Skip => {}
        None | Some(Value::Null) => merge.statusline_added = true,
        Some(existing) if existing["command"].as_str().is_some_and(is_baton_command) => {
            if let Some(command) = existing["command"].as_str().and_then(|c| repointed(c, wiring)) {
                let mut updated = existing.clone();
                updated["command"] = Value::String(command);
                merge
                    .repointed
                    .push(("statusLine".to_owned(), existing.clone(), updated));
            }
        }
        Some(existing) if policy == StatuslinePolicy::Replace => {
            merge.replaced_statusline = Some(existing.clone());
            merge.statusline_added = true;
        }
        Some(existing) => return Err(MergeError::ForeignStatusline(existing.clone())),
    }
    if !root.contains_key("hooks") {
        merge.created_hooks_key = true;
    }
    let hooks = root.entry("hooks").or_insert_with(|| Value::Object(Map::new()));
    let hooks = hooks
        .as_object_mut()
        .ok_or_else(|| MergeError::Shape("\"hooks\" is not an object".into()))?;
    let mut additions = Vec::new();
    for (event, matcher) in EVENTS {
        let groups = hooks.get(*event).map_or(Ok(&[][..]), |g| {
            g.as_array()
                .map(Vec::as_slice)
                .ok_or_else(|| MergeError::Shape(format!("\"hooks.{event}\" is not an array")))
        })?;
        if groups.iter().any(group_has_baton) {
            merge.already.push((*event).to_owned());
        } else {
            additions.push(((*event).to_owned(), wiring.hook_group(*matcher)));
        }
    }
    for (event, _) in EVENTS {
        for group in hooks
            .get_mut(*event)
            .and_then(Value::as_array_mut)
            .into_iter()
            .flatten()
        {
            let before = group.clone();
            for hook in group
                .get_mut("hooks")
                .and_then(Value::as_array_mut)
                .into_iter()
                .flatten()
            {
                if let Some(command) = hook["command"].as_str().and_then(|c| repointed(c, wiring)) {
                    hook["command"] = Value::String(command);
                }
            }
            if *group != before {
                merge.repointed.push(((*event).to_owned(), before, group.clone()));
            }
        }
    }
    for (event, group) in &additions {
        let groups = hooks.entry(event.clone()).or_insert_with(|| Value::Array(Vec::new()));
        if let Some(list) = groups.as_array_mut() {
            list.push(group.clone());
        }
    }
    merge.added_groups = additions;
    if merge.statusline_added {
        root.insert("statusLine".to_owned(), wiring.statusline());
    } else if let Some((_, _, updated)) = merge.repointed.iter().find(|(what, _, _)| what == "statusLine") {
        root.insert("statusLine".to_owned(), updated.clone());
    }
    Ok(merge)
}

/// What an earlier install added, as recorded in its manifest.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Installed {
    pub groups: Vec<(String, Value)>,
    /// The statusLine baton set, and the one it replaced.
    pub statusline: Option<Value>,
    pub replaced_statusline: Option<Value>,
    pub created_hooks_key: bool,
    /// Earlier forms of baton's entries (event or `statusLine`, value) that an interrupted
    /// install was re-pointing: taken out like the recorded ones.
    pub superseded: Vec<(String, Value)>,
}

/// What unmerging did: the entries taken out, and those left because they changed since.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Unmerged {
    pub removed: Vec<String>,
    pub kept: Vec<String>,
}

/// Removes exactly what `installed` lists: each added group (when still equal to what was
/// added), baton's statusLine (restoring the replaced one), and the containers install created
/// when they are empty again. Entries already gone are in neither list.
pub fn unmerge(settings: &mut Value, installed: &Installed) -> Unmerged {
    let mut done = Unmerged::default();
    let Some(root) = settings.as_object_mut() else {
        return done;
    };
    let earlier = |what: &str, value: &Value| installed.superseded.iter().any(|(w, v)| w == what && v == value);
    if let Some(ours) = &installed.statusline {
        match root.get("statusLine") {
            Some(current) if current == ours || earlier("statusLine", current) => {
                match &installed.replaced_statusline {
                    Some(previous) => {
                        root.insert("statusLine".to_owned(), previous.clone());
                        done.removed.push(format!(
                            "statusLine (the one it replaced, `{}`, is back)",
                            previous["command"].as_str().unwrap_or("?")
                        ));
                    }
                    None => {
                        root.shift_remove("statusLine");
                        done.removed.push("statusLine".to_owned());
                    }
                };
            }
            // An install interrupted before it wrote settings.json: the old one is still there.
            Some(current) if installed.replaced_statusline.as_ref() == Some(current) => {}
            Some(_) => done.kept.push("statusLine (changed since install)".to_owned()),
            None => {}
        }
    }
    if let Some(hooks) = root.get_mut("hooks").and_then(Value::as_object_mut) {
        for (event, group) in &installed.groups {
            let Some(list) = hooks.get_mut(event).and_then(Value::as_array_mut) else {
                continue;
            };
            let found = list
                .iter()
                .position(|g| g == group)
                .or_else(|| list.iter().position(|g| earlier(event, g)));
            match found {
                Some(i) => {
                    list.remove(i);
                    done.removed.push(format!("hooks.{event}"));
                }
                None if list.iter().any(group_has_baton) => {
                    done.kept.push(format!("hooks.{event} (changed since install)"));
                }
                None => {}
            }
            if list.is_empty() {
                hooks.shift_remove(event);
            }
        }
    }
    if installed.created_hooks_key && root.get("hooks").and_then(Value::as_object).is_some_and(Map::is_empty) {
        root.shift_remove("hooks");
    }
    done
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wiring() -> Wiring {
        Wiring::for_binary_on("/home/u/.local/bin/baton", Family::Unix, Shell::Posix)
    }

    #[test]
    fn the_command_lines_install_writes_on_each_platform() {
        let unix = Wiring::for_binary_on("/Users/Jane Doe/bin/baton", Family::Unix, Shell::Posix);
        assert_eq!(unix.statusline()["command"], "'/Users/Jane Doe/bin/baton' statusline");
        assert_eq!(
            unix.hook_group(Some("*")),
            json!({"matcher": "*", "hooks": [{"type": "command", "command": "'/Users/Jane Doe/bin/baton' hook", "timeout": HOOK_TIMEOUT}]})
        );
        let plain = r"C:\Users\jane\.cargo\bin\baton.exe";
        for shell in [Shell::Posix, Shell::PowerShell] {
            let w = Wiring::for_binary_on(plain, Family::Windows, shell);
            assert_eq!(
                w.statusline()["command"],
                "C:/Users/jane/.cargo/bin/baton.exe statusline"
            );
            assert_eq!(
                w.hook_group(None),
                json!({"hooks": [{"type": "command", "command": "C:/Users/jane/.cargo/bin/baton.exe hook", "timeout": HOOK_TIMEOUT}]}),
                "a bare path runs in Git Bash and PowerShell alike: no shell is pinned"
            );
        }
        let spaced = r"C:\Users\Jane Doe\AppData\Local\Programs\baton\baton.exe";
        let git_bash = Wiring::for_binary_on(spaced, Family::Windows, Shell::Posix);
        assert_eq!(
            git_bash.hook_group(None)["hooks"][0],
            json!({"type": "command", "command": "'C:/Users/Jane Doe/AppData/Local/Programs/baton/baton.exe' hook", "timeout": HOOK_TIMEOUT})
        );
        let powershell = Wiring::for_binary_on(spaced, Family::Windows, Shell::PowerShell);
        assert_eq!(
            powershell.statusline()["command"],
            "& 'C:/Users/Jane Doe/AppData/Local/Programs/baton/baton.exe' statusline"
        );
        assert_eq!(
            powershell.hook_group(None)["hooks"][0],
            json!({"type": "command", "command": "& 'C:/Users/Jane Doe/AppData/Local/Programs/baton/baton.exe' hook",
                   "timeout": HOOK_TIMEOUT, "shell": "powershell"})
        );
        // Each is recognised as baton's, and merging it twice adds nothing.
        for w in [&unix, &git_bash, &powershell] {
            let mut settings = json!({});
            merge(&mut settings, w, StatuslinePolicy::Refuse).unwrap();
            let again = merge(&mut settings, w, StatuslinePolicy::Refuse).unwrap();
            assert!(again.added_groups.is_empty() && again.repointed.is_empty(), "{w:?}");
            assert_eq!(again.already.len(), EVENTS.len(), "{w:?}");
        }
    }

    #[test]
    fn merge_repoints_batons_entries_at_a_new_binary_only() {
        let old = Wiring::for_binary_on("/old/bin/baton", Family::Unix, Shell::Posix);
        let mut settings = json!({"statusLine": old.statusline(), "hooks": {
            "PreCompact": [{"hooks": [{"type": "command", "command": "baton hook"}]}],
            "SessionStart": [{"hooks": [{"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/bin/baton hook"}]}]}});
        merge(&mut settings, &old, StatuslinePolicy::Refuse).unwrap();
        let m = merge(&mut settings, &wiring(), StatuslinePolicy::Refuse).unwrap();
        assert!(m.added_groups.is_empty() && !m.statusline_added);
        let what: Vec<&str> = m.repointed.iter().map(|(w, _, _)| w.as_str()).collect();
        assert_eq!(what, ["statusLine", "PostToolUse", "SubagentStart", "SubagentStop"]);
        assert_eq!(settings["statusLine"], wiring().statusline());
        assert_eq!(settings["hooks"]["PreCompact"][0]["hooks"][0]["command"], "baton hook");
        assert_eq!(
            settings["hooks"]["SessionStart"][0]["hooks"][0]["command"],
            "${CLAUDE_PLUGIN_ROOT}/bin/baton hook"
        );
        assert_eq!(
            settings["hooks"]["PostToolUse"][0],
            wiring().hook_group(Some("*")),
            "re-pointed in place"
        );
        let again = merge(&mut settings, &wiring(), StatuslinePolicy::Refuse).unwrap();
        assert!(again.repointed.is_empty());
    }

    #[test]
    fn merge_keeps_everything_and_is_idempotent() {
        let mut settings = json!({"model": "opus", "hooks": {"PostToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "node ~/.claude/hooks/gsd-context-monitor.js"}]}]}});
        let first = merge(&mut settings, &wiring(), StatuslinePolicy::Refuse).unwrap();
        assert_eq!(first.added_groups.len(), EVENTS.len());
        assert!(first.statusline_added && !first.created_hooks_key);
        assert_eq!(settings["hooks"]["PostToolUse"].as_array().unwrap().len(), 2);
        assert_eq!(
            settings["hooks"]["PostToolUse"][0]["hooks"][0]["command"],
            "node ~/.claude/hooks/gsd-context-monitor.js"
        );
        let once = settings.clone();
        let second = merge(&mut settings, &wiring(), StatuslinePolicy::Refuse).unwrap();
        assert!(second.added_groups.is_empty() && !second.statusline_added);
        assert_eq!(settings, once);
    }

    #[test]
    fn a_foreign_statusline_needs_consent_and_comes_back_on_unmerge() {
        let original = json!({"statusLine": {"type": "command", "command": "npx ccstatusline@latest", "padding": 0}});
        let mut settings = original.clone();
        assert!(matches!(
            merge(&mut settings, &wiring(), StatuslinePolicy::Refuse),
            Err(MergeError::ForeignStatusline(_))
        ));
        assert_eq!(settings, original, "nothing changed on refusal");
        let m = merge(&mut settings, &wiring(), StatuslinePolicy::Replace).unwrap();
        let installed = Installed {
            groups: m.added_groups,
            statusline: Some(wiring().statusline()),
            replaced_statusline: m.replaced_statusline,
            created_hooks_key: m.created_hooks_key,
            superseded: Vec::new(),
        };
        let done = unmerge(&mut settings, &installed);
        assert!(done.kept.is_empty());
        assert_eq!(
            done.removed[0],
            "statusLine (the one it replaced, `npx ccstatusline@latest`, is back)"
        );
        assert_eq!(settings, original);
    }

    #[test]
    fn unmerge_leaves_entries_changed_since_install() {
        let mut settings = json!({});
        let m = merge(&mut settings, &wiring(), StatuslinePolicy::Refuse).unwrap();
        settings["hooks"]["SessionStart"][0]["hooks"][0]["timeout"] = json!(30);
        let installed = Installed {
            groups: m.added_groups,
            statusline: Some(wiring().statusline()),
            replaced_statusline: None,
            created_hooks_key: m.created_hooks_key,
            superseded: Vec::new(),
        };
        let done = unmerge(&mut settings, &installed);
        assert_eq!(done.kept, vec!["hooks.SessionStart (changed since install)"]);
        assert!(!done.removed.iter().any(|r| r.contains("SessionStart")), "{done:?}");
        assert_eq!(done.removed.len(), EVENTS.len(), "the statusLine and the other four");
        assert_eq!(settings["hooks"].as_object().unwrap().len(), 1);
    }

    #[test]
    fn wrong_shapes_are_refused() {
        assert!(matches!(
            merge(&mut json!([1]), &wiring(), StatuslinePolicy::Refuse),
            Err(MergeError::Shape(_))
        ));
        assert!(matches!(
            merge(&mut json!({"hooks": []}), &wiring(), StatuslinePolicy::Refuse),
            Err(MergeError::Shape(_))
        ));
        assert!(matches!(
            merge(
                &mut json!({"hooks": {"SessionStart": {}}}),
                &wiring(),
                StatuslinePolicy::Refuse
            ),
            Err(MergeError::Shape(_))
        ));
    }
}
