//! The scene a hook or statusline input sets: the payload is the input's first JSON object
//! (as the stdin reader takes it), everything after it is the session's transcript, and an
//! optional `"fuzz"` key of the payload (which baton ignores) replaces the project's files:
//! `state` (STATE.md), `roadmap` (ROADMAP.md), `config` (.planning/config.json), `handoff`
//! (HANDOFF.json), `store` (the context store's document), `journal` (its first journal
//! segment), `bridge` (the statusline's bridge file, under the payload's session id),
//! `tasks` (Claude Code's task list of the session) and `columns` (COLUMNS).

use serde_json::Value;

use crate::Sandbox;

/// A payload with its scene laid out in the sandbox.
pub struct Scene {
    /// The payload's bytes, as the reader returned them.
    pub payload: Vec<u8>,
    /// The `"fuzz"` value, `Null` when absent.
    pub fuzz: Value,
    /// `COLUMNS` to render for, if the input sets it.
    pub columns: Option<usize>,
}

/// Reads the input's payload and lays out its scene (the sandbox made afresh); `None` when
/// the input holds no object.
pub fn set(sandbox: &Sandbox, input: &[u8]) -> Option<Scene> {
    let (begin, payload) = crate::first_object(input).ok()?;
    let transcript = &input[begin + payload.len()..];
    let parsed: Value = serde_json::from_slice(&payload).unwrap_or(Value::Null);
    let fuzz = parsed.get("fuzz").cloned().unwrap_or(Value::Null);
    sandbox.reset();
    sandbox.write(&sandbox.transcript(), transcript);
    let project = sandbox.project();
    let text = |key: &str| fuzz.get(key).and_then(Value::as_str);
    if text("state").is_some() || text("roadmap").is_some() {
        sandbox.write_planning(text("state").unwrap_or(""), text("roadmap").unwrap_or(""));
    }
    let files = [
        ("config", project.join(".planning/config.json")),
        ("handoff", project.join(".planning/HANDOFF.json")),
        ("store", project.join(".baton/context.json")),
        ("journal", project.join(".baton/context/journal-000000000000.jsonl")),
    ];
    for (key, path) in files {
        if let Some(value) = fuzz.get(key) {
            sandbox.write(&path, &file_bytes(value));
        }
    }
    let session = parsed.get("session_id").and_then(Value::as_str);
    if let Some(session) = session.filter(|s| baton::fsx::is_safe_session_id(s)) {
        if let Some(bridge) = fuzz.get("bridge") {
            let path = sandbox.tmp().join(format!("claude-ctx-{session}.json"));
            sandbox.write(&path, &file_bytes(bridge));
        }
        if let Some(tasks) = fuzz.get("tasks").and_then(Value::as_array) {
            for (i, task) in tasks.iter().enumerate() {
                let path = sandbox.claude_dir().join(format!("tasks/{session}/{}.json", i + 1));
                sandbox.write(&path, &file_bytes(task));
            }
        }
    }
    let columns = fuzz
        .get("columns")
        .and_then(Value::as_u64)
        .map(|c| c.min(100_000) as usize);
    Some(Scene { payload, fuzz, columns })
}

/// A file's contents from a value: a string is the text itself, anything else its JSON.
fn file_bytes(value: &Value) -> Vec<u8> {
    match value {
        Value::String(text) => text.as_bytes().to_vec(),
        other => serde_json::to_vec_pretty(other).expect("a value serialises"),
    }
}
