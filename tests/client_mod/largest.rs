//! The mod's warning names the largest items in the live context as the hook's does: from the
//! transcript the client names, else the one the session's id names in the project, and a
//! subagent's from its own transcript, with the same running walk.

use serde_json::json;

use super::{SESSION, ask, tool_call};
use crate::common::*;
use crate::window::{Session, a_working_session};

/// The warning `baton mod` gives at 150k of 200k (CRITICAL: 25% left), with `extra` fields.
fn warning_at_150k(sandbox: &Sandbox, extra: serde_json::Value) -> String {
    let mut question = tool_call(&[140_000, 150_000]);
    for (key, value) in extra.as_object().unwrap() {
        question[key] = value.clone();
    }
    let answer = ask(sandbox, question);
    answer["context"]
        .as_str()
        .map(str::to_owned)
        .unwrap_or_else(|| panic!("no warning: {answer}"))
}

#[test]
fn the_warning_names_the_largest_items_of_the_transcript_the_client_names() {
    let sandbox = Sandbox::new();
    let transcript = a_working_session(&sandbox).write(&sandbox, "elsewhere");
    let text = warning_at_150k(&sandbox, json!({"transcript_path": native(&transcript)}));
    assert!(text.starts_with("CONTEXT CRITICAL: Usage at 75%."), "{text}");
    assert!(
        text.contains("Largest in context: Read src/billing/ledger_dump.sql 3"),
        "the Read of 32k first: {text}"
    );
    assert!(text.contains(", Bash npm test 1"), "{text}");
    let state = sandbox
        .tmp
        .join(&os::private_dir_names()[0])
        .join(format!("session-{SESSION}-fills.bin"));
    assert!(state.is_file(), "the hook's running walk, under the session's key");
}

#[test]
fn without_a_path_the_sessions_transcript_is_found_by_its_id() {
    let sandbox = Sandbox::new();
    a_working_session(&sandbox).write(&sandbox, SESSION);
    let text = warning_at_150k(&sandbox, json!({}));
    assert!(
        text.contains("Largest in context: Read src/billing/ledger_dump.sql 3"),
        "{text}"
    );
    let empty = warning_at_150k(&Sandbox::new(), json!({"transcript_path": ""}));
    assert!(
        !empty.contains("Largest in context"),
        "no transcript, no clause: {empty}"
    );
}

#[test]
fn a_subagents_warning_names_its_own_largest_items() {
    let sandbox = Sandbox::new();
    let cwd = native(std::fs::canonicalize(&sandbox.project).unwrap());
    let own = a_working_session(&sandbox).write(&sandbox, "scratch");
    let agent = "a8e2f0c4d6b1a3e5f";
    sandbox.subagent_transcript(SESSION, agent, &std::fs::read_to_string(own).unwrap());
    let mut main = Session::new(&sandbox);
    main.prompt("delegate")
        .reply(20_000, Some(("Read", json!({"file_path": format!("{cwd}/README.md")}))))
        .result(90_000)
        .reply(45_000, None);
    let transcript = main.write(&sandbox, SESSION);
    let text = warning_at_150k(
        &sandbox,
        json!({"agent_id": agent, "transcript_path": native(&transcript)}),
    );
    assert!(text.contains("report back to the orchestrator"), "{text}");
    assert!(
        text.contains("Largest in context: Read src/billing/ledger_dump.sql 3"),
        "{text}"
    );
    assert!(
        !text.contains("README"),
        "the main conversation's Read is not the subagent's: {text}"
    );
}
