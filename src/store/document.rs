//! The context document, in the shape of BMAD's context-manager proposal: `session_id,
//! project_name, workflow_type, current_step, context_version, agents{name: {status, inputs,
//! outputs{artifact: {file_path, structured_data, execution_time, quality_score}}}},
//! global_context{…}`, open to any other keys. A new document, the shape check, how
//! `context_version` advances, and an artifact record.

use serde_json::{Value, json};

/// The statuses an agent can have.
pub const STATUSES: &[&str] = &["pending", "in_progress", "completed", "failed"];

/// Deepest the document may nest (objects and lists inside each other, the document itself
/// the first): what the store writes must read back, and JSON readers (serde_json, so baton
/// itself, and many others) stop at 128 levels; a journal line holds a value 3 levels down.
pub const MAX_DEPTH: usize = 100;
/// Deepest a document baton reads nests (serde_json's limit): no path into one has more keys.
pub const MAX_READ_DEPTH: usize = 127;

/// How many levels of objects and lists `value` nests (0 for a string, number, bool or null).
pub fn nesting(value: &Value) -> usize {
    match value {
        Value::Array(items) => 1 + items.iter().map(nesting).max().unwrap_or(0),
        Value::Object(map) => 1 + map.values().map(nesting).max().unwrap_or(0),
        _ => 0,
    }
}

/// A new, empty document (version 1).
pub fn skeleton(project_name: &str, workflow_type: Option<&str>, session_id: Option<&str>) -> Value {
    json!({
        "session_id": session_id,
        "project_name": project_name,
        "workflow_type": workflow_type,
        "current_step": 0,
        "context_version": 1,
        "agents": {},
        "global_context": {"project_constraints": {}, "technical_stack": {}}
    })
}

/// The next `context_version` after `current`: an integer counts up, a dotted version string
/// (`"1.0.2"`, the proposal's example) advances its last number (`"1.0.3"`); a missing one
/// becomes `version`. `None` when it cannot advance (a string such as `"draft"`).
pub fn advance_version(current: Option<&Value>, version: u64) -> Option<Value> {
    match current {
        None | Some(Value::Null) => Some(json!(version)),
        Some(Value::Number(n)) => n.as_u64().map(|n| json!(n + 1)),
        Some(Value::String(text)) => {
            let (head, last) = text.rsplit_once('.').unwrap_or(("", text));
            let next = last.parse::<u64>().ok()?.checked_add(1)?;
            let dot = if text.contains('.') { "." } else { "" };
            Some(json!(format!("{head}{dot}{next}")))
        }
        Some(_) => None,
    }
}

/// An output record of an agent, as the proposal writes it.
pub fn artifact(file_path: Option<&str>, structured_data: Option<Value>, quality: Option<f64>, now: &str) -> Value {
    json!({
        "file_path": file_path,
        "structured_data": structured_data.unwrap_or_else(|| json!({})),
        "execution_time": now,
        "quality_score": quality,
    })
}

/// Where the document departs from the proposal's shape, one message each.
pub fn shape_problems(doc: &Value) -> Vec<String> {
    let mut problems = Vec::new();
    let Some(root) = doc.as_object() else {
        return vec!["the document is not a JSON object".into()];
    };
    let mut expect = |key: &str, ok: bool, what: &str| {
        if !ok {
            problems.push(format!("{key} must be {what}"));
        }
    };
    let field = |key: &str| root.get(key).unwrap_or(&Value::Null);
    expect(
        "session_id",
        field("session_id").is_string() || field("session_id").is_null(),
        "a string",
    );
    expect("project_name", field("project_name").is_string(), "a string");
    expect(
        "workflow_type",
        field("workflow_type").is_string() || field("workflow_type").is_null(),
        "a string",
    );
    expect(
        "current_step",
        field("current_step").is_u64() || field("current_step").is_null() || field("current_step").is_string(),
        "a step number",
    );
    let version = field("context_version");
    expect(
        "context_version",
        version.is_u64() || version.as_str().is_some_and(|s| !s.is_empty()),
        "a version number or string such as \"1.0.2\"",
    );
    expect(
        "global_context",
        field("global_context").is_object() || !root.contains_key("global_context"),
        "an object",
    );
    match root.get("agents") {
        None => problems.push("agents is missing (an object of agents by name)".into()),
        Some(Value::Object(agents)) => {
            for (name, agent) in agents {
                agent_problems(name, agent, &mut problems);
            }
        }
        Some(_) => problems.push("agents must be an object of agents by name".into()),
    }
    problems
}

fn agent_problems(name: &str, agent: &Value, problems: &mut Vec<String>) {
    let at = format!("agents.{name}");
    let Some(agent) = agent.as_object() else {
        problems.push(format!("{at} must be an object"));
        return;
    };
    match agent.get("status") {
        None | Some(Value::Null) => {}
        Some(Value::String(s)) if STATUSES.contains(&s.as_str()) => {}
        Some(other) => problems.push(format!("{at}.status is {other}; use one of {}", STATUSES.join(", "))),
    }
    if agent.get("inputs").is_some_and(|i| !i.is_object()) {
        problems.push(format!("{at}.inputs must be an object"));
    }
    match agent.get("outputs") {
        None => {}
        Some(Value::Object(outputs)) => {
            for (artifact, record) in outputs {
                artifact_problems(&format!("{at}.outputs.{artifact}"), record, problems);
            }
        }
        Some(_) => problems.push(format!("{at}.outputs must be an object of artifacts")),
    }
}

fn artifact_problems(at: &str, record: &Value, problems: &mut Vec<String>) {
    if record.as_str().is_some_and(|s| s.starts_with('@')) {
        return; // a reference to an artifact recorded elsewhere
    }
    let Some(record) = record.as_object() else {
        problems.push(format!(
            "{at} must be an object (file_path, structured_data, execution_time, quality_score)"
        ));
        return;
    };
    let get = |key: &str| record.get(key).unwrap_or(&Value::Null);
    if !(get("file_path").is_string() || get("file_path").is_null()) {
        problems.push(format!("{at}.file_path must be a string"));
    }
    match get("execution_time") {
        Value::Null => {}
        Value::String(t) if chrono::DateTime::parse_from_rfc3339(t).is_ok() => {}
        other => problems.push(format!(
            "{at}.execution_time is {other}; use an RFC 3339 time such as 2024-01-01T10:00:00Z"
        )),
    }
    if !(get("quality_score").is_number() || get("quality_score").is_null()) {
        problems.push(format!("{at}.quality_score must be a number"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_advance_in_their_own_form() {
        assert_eq!(advance_version(Some(&json!("1.0.2")), 9), Some(json!("1.0.3")));
        assert_eq!(advance_version(Some(&json!("1.0.9")), 9), Some(json!("1.0.10")));
        assert_eq!(advance_version(Some(&json!("7")), 9), Some(json!("8")));
        assert_eq!(advance_version(Some(&json!(41)), 9), Some(json!(42)));
        assert_eq!(advance_version(None, 9), Some(json!(9)));
        assert_eq!(advance_version(Some(&json!("draft")), 9), None);
    }

    #[test]
    fn the_skeleton_has_the_proposal_shape_and_bad_values_are_named() {
        assert!(shape_problems(&skeleton("app", Some("greenfield-fullstack"), None)).is_empty());
        let bad = json!({"project_name": "p", "context_version": 1, "agents": {
            "pm": {"status": "done", "inputs": [], "outputs": {"brief": {"execution_time": "yesterday",
                   "quality_score": "high"}}}}});
        let problems = shape_problems(&bad);
        assert_eq!(problems.len(), 4, "{problems:#?}");
        assert!(problems[0].contains("agents.pm.status is \"done\"; use one of pending"));
    }
}
