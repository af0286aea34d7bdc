//! The main agent's in-progress todo, from Claude Code's `todos/<session>-agent-<session>.json`.


use serde::Deserialize;

use crate::fsx;
use crate::hook::payload::lenient;

const MAX_TODOS_BYTES: u64 = 1024 * 1024;

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
    let path = crate::claude_home::config_dir()?
        .join("todos")
        .join(format!("{session_id}-agent-{session_id}.json"));
    let bytes = fsx::read_regular(&path, MAX_TODOS_BYTES).ok()?;
    let todos: Vec<Todo> = serde_json::from_slice(&bytes).ok()?;
    let task = todos.into_iter().find(|t| t.status.as_deref() == Some("in_progress"))?;
    task.active_form
        .or(task.content)
        .map(|t| t.trim().to_owned())
        .filter(|t| !t.is_empty())
}
