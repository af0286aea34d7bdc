//! Merging baton's wiring into a Claude Code settings.json value and taking it out again.
//! Pure functions on `serde_json::Value` (key order preserved); files live in `install/mod.rs`.

use serde_json::{Map, Value};

use super::command_line::is_baton_command;
pub use super::wiring::{HOOK_TIMEOUT, Wiring};

/// Hook events baton handles, with the matcher of its group (`None`: the event has no matcher).
pub const EVENTS: &[(&str, Option<&str>)] = &[
    // Every tool spends context (Read and Grep most of all), so the monitor sees them all.
    ("PostToolUse", Some("*")),
    ("SessionStart", None),
    ("PreCompact", None),
    // Claude Code ≥ 2.1.76: resets the monitor and counts the compaction (it prints nothing).
    ("PostCompact", None),
    ("SubagentStart", None),
    ("SubagentStop", None),
];

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
    /// The statusLine baton set replaced a `null` one (uninstall puts the `null` back).
    pub statusline_was_null: bool,
    /// Events whose hook list was there and empty before baton's group went in (uninstall
    /// leaves the empty list, as it was).
    pub kept_empty: Vec<String>,
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
    /// Set baton's where no other tool's is; another tool's stays and the rest is wired (the
    /// install's report names it, and `--force`).
    Keep,
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
        None => merge.statusline_added = true,
        Some(Value::Null) => {
            merge.statusline_added = true;
            merge.statusline_was_null = true;
        }
        Some(existing) if existing["command"].as_str().is_some_and(is_baton_command) => {
            if let Some(command) = existing["command"].as_str().and_then(|c| wiring.repointed(c)) {
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
    if wiring.hooks {
        merge_hooks(root, wiring, &mut merge)?;
    }
    if merge.statusline_added {
        root.insert("statusLine".to_owned(), wiring.statusline());
    } else if let Some((_, _, updated)) = merge.repointed.iter().find(|(what, _, _)| what == "statusLine") {
        root.insert("statusLine".to_owned(), updated.clone());
    }
    Ok(merge)
}

/// The hook part of [`merge`]: adds baton's group for each event not already wired to baton,
/// and re-points baton's groups that run another binary.
fn merge_hooks(root: &mut Map<String, Value>, wiring: &Wiring, merge: &mut Merge) -> Result<(), MergeError> {
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
            if groups.is_empty() && hooks.contains_key(*event) {
                merge.kept_empty.push((*event).to_owned());
            }
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
                if let Some(command) = hook["command"].as_str().and_then(|c| wiring.repointed(c)) {
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
    Ok(())
}

/// What an earlier install added, as recorded in its manifest.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Installed {
    pub groups: Vec<(String, Value)>,
    /// The statusLine baton set, and the one it replaced.
    pub statusline: Option<Value>,
    pub replaced_statusline: Option<Value>,
    pub created_hooks_key: bool,
    /// The statusLine baton set replaced a `null` one.
    pub statusline_was_null: bool,
    /// Events whose empty hook list was there before install.
    pub kept_empty: Vec<String>,
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
                    None if installed.statusline_was_null => {
                        root.insert("statusLine".to_owned(), Value::Null);
                        done.removed.push("statusLine".to_owned());
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
            if list.is_empty() && !installed.kept_empty.contains(event) {
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
    use crate::platform::Family;
    use crate::platform::shell::Shell;
    use serde_json::json;

    fn wiring() -> Wiring {
        Wiring::for_binary_on("/home/u/.local/bin/baton", Family::Unix, Shell::Posix)
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
        assert_eq!(
            what,
            [
                "statusLine",
                "PostToolUse",
                "PostCompact",
                "SubagentStart",
                "SubagentStop"
            ]
        );
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
            ..Installed::default()
        };
        let done = unmerge(&mut settings, &installed);
        assert!(done.kept.is_empty());
        assert_eq!(
            done.removed[0],
            "statusLine (the one it replaced, `npx ccstatusline@latest`, is back)"
        );
        assert_eq!(settings, original);
    }

    /// Found writing the settings fuzz target (install then uninstall gives the input back):
    /// uninstall dropped a `null` statusLine and an empty hook list that were there before.
    #[test]
    fn a_null_statusline_and_an_empty_hook_list_come_back_on_unmerge() {
        let original = json!({"statusLine": null, "hooks": {"PostToolUse": [], "Stop": []}});
        let mut settings = original.clone();
        let m = merge(&mut settings, &wiring(), StatuslinePolicy::Refuse).unwrap();
        assert!(m.statusline_added && m.statusline_was_null);
        assert_eq!(m.kept_empty, ["PostToolUse"]);
        let installed = Installed {
            groups: m.added_groups,
            statusline: Some(wiring().statusline()),
            statusline_was_null: m.statusline_was_null,
            kept_empty: m.kept_empty,
            ..Installed::default()
        };
        unmerge(&mut settings, &installed);
        assert_eq!(
            serde_json::to_string(&settings).unwrap(),
            serde_json::to_string(&original).unwrap()
        );
    }

    #[test]
    fn unmerge_leaves_entries_changed_since_install() {
        let mut settings = json!({});
        let m = merge(&mut settings, &wiring(), StatuslinePolicy::Refuse).unwrap();
        settings["hooks"]["SessionStart"][0]["hooks"][0]["timeout"] = json!(30);
        let installed = Installed {
            groups: m.added_groups,
            statusline: Some(wiring().statusline()),
            created_hooks_key: m.created_hooks_key,
            ..Installed::default()
        };
        let done = unmerge(&mut settings, &installed);
        assert_eq!(done.kept, vec!["hooks.SessionStart (changed since install)"]);
        assert!(!done.removed.iter().any(|r| r.contains("SessionStart")), "{done:?}");
        assert_eq!(done.removed.len(), EVENTS.len(), "the statusLine and the other hooks");
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
