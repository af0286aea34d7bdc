//! The handoff at a subagent's spawn: what the SubagentStart hook gives today (the agent's
//! inputs from the context store, then the `contextForNext` of the agents of the session that
//! finished before it), for the mod to put before the subagent's task.

use serde_json::{Value, json};

use super::ask;
use crate::common::*;

const MIGRATION: &str = "CREATE TABLE users (\n  id bigserial PRIMARY KEY,\n  email text NOT NULL UNIQUE\n);\n";

#[test]
fn a_spawning_subagent_gets_what_the_subagent_start_hook_would_give() {
    let sandbox = Sandbox::new();
    git_repo(&sandbox.project, &[("README.md", "# app\n")]);
    crate::ctx::example_store(&sandbox);
    let session = fixture("subagentstart.json")["session_id"].clone();
    sandbox.hook(&subagent_event(
        &sandbox,
        "SubagentStart",
        "adb0000000000001",
        "db-coding-agent",
    ));
    sandbox.write("db/migrations/001_users.sql", MIGRATION);
    let mut stop = subagent_event(&sandbox, "SubagentStop", "adb0000000000001", "db-coding-agent");
    stop["last_assistant_message"] = json!("Created the users table.");
    sandbox.hook(&stop).assert_hook_contract();

    let spawned = ask(
        &sandbox,
        json!({"event": "spawn", "session_id": session, "agent_type": "pm", "description": "plan it"}),
    );
    let text = spawned["context"].as_str().expect("a handoff").to_owned();
    assert!(
        text.starts_with("baton context store (.baton/context.json"),
        "inputs first: {text}"
    );
    assert!(text.contains("Handoff from db-coding-agent (db):"), "{text}");
    assert!(
        text.contains("- users [db/migrations/001_users.sql]: id bigserial PK"),
        "{text}"
    );

    // The hook's text for the next agent, word for word (the mod is not running here).
    let hook = sandbox.hook(&subagent_event(&sandbox, "SubagentStart", "apm0000000000002", "pm"));
    let hooked: Value = serde_json::from_str(hook.stdout.trim()).unwrap();
    let hooked = hooked["hookSpecificOutput"]["additionalContext"].as_str().unwrap();
    // The hook marked pm in_progress first, so its store version is one ahead.
    assert_eq!(hooked.replacen("version 4", "version 3", 1), text);

    let other = ask(
        &sandbox,
        json!({"event": "spawn", "session_id": "another", "agent_type": "qa"}),
    );
    assert_eq!(
        other,
        json!({}),
        "nothing for an agent of another session the store does not name"
    );
}
