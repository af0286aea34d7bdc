//! The main agent's in-progress task: from Claude Code's task files
//! (`<config dir>/tasks/<session>/<n>.json`, written by TaskCreate/TaskUpdate on 2.1.x), else
//! from the older TodoWrite list (`<config dir>/todos/<session>-agent-<session>.json`).

use std::fs;
use std::path::Path;
use std::time::SystemTime;

use serde::Deserialize;

use crate::fsx;
use crate::json::lenient::lenient;

const MAX_TODOS_BYTES: u64 = 1024 * 1024;
/// One task file is a few hundred bytes; anything bigger is not one.
const MAX_TASK_BYTES: u64 = 64 * 1024;
/// Names looked at in a session's task directory.
const MAX_LISTED: usize = 512;
/// Task files read per render: the most recently changed ones (a task turns in-progress by
/// a write to its file).
const MAX_READ: usize = 32;

/// A task file (`{"id":"1","subject":…,"activeForm":…,"status":"in_progress",…}`).
#[derive(Deserialize)]
struct Task {
    #[serde(default, deserialize_with = "lenient")]
    subject: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    status: Option<String>,
    #[serde(rename = "activeForm", default, deserialize_with = "lenient")]
    active_form: Option<String>,
}

/// An entry of the legacy TodoWrite list.
#[derive(Deserialize)]
struct Todo {
    #[serde(default, deserialize_with = "lenient")]
    content: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    status: Option<String>,
    #[serde(rename = "activeForm", default, deserialize_with = "lenient")]
    active_form: Option<String>,
}

/// The in-progress task's wording ("Running the tests"), if the session has one.
pub fn current_task(session_id: &str) -> Option<String> {
    if !fsx::is_safe_session_id(session_id) {
        return None;
    }
    let config = crate::claude_home::config_dir()?;
    let legacy = config
        .join("todos")
        .join(format!("{session_id}-agent-{session_id}.json"));
    from_task_files(&config.join("tasks").join(session_id)).or_else(|| from_todo_list(&legacy))
}

/// The in-progress task with the lowest id among the session's most recently changed task
/// files; regular `<n>.json` files only, each size-capped.
fn from_task_files(dir: &Path) -> Option<String> {
    let mut files: Vec<(u64, SystemTime, std::path::PathBuf)> = fs::read_dir(dir)
        .ok()?
        .take(MAX_LISTED)
        .flatten()
        .filter_map(|entry| {
            let id: u64 = entry.file_name().to_str()?.strip_suffix(".json")?.parse().ok()?;
            // DirEntry metadata does not follow symlinks.
            let meta = entry.metadata().ok().filter(fs::Metadata::is_file)?;
            let changed = meta.modified().unwrap_or(SystemTime::UNIX_EPOCH);
            Some((id, changed, entry.path()))
        })
        .collect();
    files.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    files.truncate(MAX_READ);
    files.sort_by_key(|f| f.0);
    files.iter().find_map(|(_, _, path)| {
        let bytes = fsx::read_regular(path, MAX_TASK_BYTES).ok()?;
        let task: Task = serde_json::from_slice(&bytes).ok()?;
        if task.status.as_deref() != Some("in_progress") {
            return None;
        }
        wording(task.active_form, task.subject)
    })
}

fn from_todo_list(path: &Path) -> Option<String> {
    let bytes = fsx::read_regular(path, MAX_TODOS_BYTES).ok()?;
    let todos: Vec<Todo> = serde_json::from_slice(&bytes).ok()?;
    let task = todos.into_iter().find(|t| t.status.as_deref() == Some("in_progress"))?;
    wording(task.active_form, task.content)
}

/// The present-tense form when given, else the plain title; blank reads as absent.
fn wording(active_form: Option<String>, title: Option<String>) -> Option<String> {
    [active_form, title]
        .into_iter()
        .flatten()
        .map(|t| t.trim().to_owned())
        .find(|t| !t.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn picks_the_in_progress_task_and_skips_what_is_not_a_task_file() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let task = |id: u32, status: &str, active: &str| {
            format!(
                r#"{{"id":"{id}","subject":"Task {id}","description":"d","activeForm":"{active}","status":"{status}","blocks":[],"blockedBy":[]}}"#
            )
        };
        fs::write(d.join("1.json"), task(1, "completed", "Writing tests")).unwrap();
        fs::write(d.join("3.json"), task(3, "pending", "Deploying")).unwrap();
        fs::write(d.join(".lock"), "").unwrap();
        fs::write(d.join("notes.json"), task(9, "in_progress", "Not a task file")).unwrap();
        fs::create_dir(d.join("4.json")).unwrap();
        assert_eq!(from_task_files(d), None);
        fs::write(d.join("2.json"), task(2, "in_progress", "")).unwrap();
        assert_eq!(
            from_task_files(d).as_deref(),
            Some("Task 2"),
            "subject when activeForm is blank"
        );
        fs::write(d.join("2.json"), task(2, "in_progress", "Fixing the login bug")).unwrap();
        assert_eq!(from_task_files(d).as_deref(), Some("Fixing the login bug"));
        fs::write(d.join("5.json"), "x".repeat(MAX_TASK_BYTES as usize + 1)).unwrap();
        crate::platform::fs::symlink_file(&d.join("notes.json"), &d.join("0.json")).unwrap();
        assert_eq!(
            from_task_files(d).as_deref(),
            Some("Fixing the login bug"),
            "no symlinks"
        );
        assert_eq!(from_task_files(&d.join("missing")), None);
    }
}
