//! Session continuity through the built binary: progress, pause and resume on a realistic
//! GSD project (and broken ones), and the hooks that carry the brief across /clear and
//! compaction.

mod gsd_core;
mod hooks;
#[cfg(unix)]
mod modes;
mod pause;
mod progress;
mod resume;

use serde_json::Value;

use crate::common::gsd;
use crate::common::*;

fn project() -> Sandbox {
    let sandbox = Sandbox::new();
    gsd::write_project(&sandbox);
    sandbox
}

fn ok(out: &Outcome) -> &str {
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(out.stderr.is_empty(), "{out:?}");
    &out.stdout
}

fn json_of(out: &Outcome) -> Value {
    serde_json::from_str(ok(out)).unwrap_or_else(|e| panic!("not JSON ({e}): {}", out.stdout))
}

fn read(sandbox: &Sandbox, relative: &str) -> String {
    std::fs::read_to_string(sandbox.project.join(relative)).unwrap()
}

fn session_start_context(sandbox: &Sandbox, source: &str) -> Option<String> {
    let out = sandbox.hook(&session_start(sandbox, "s-1", source));
    out.assert_hook_contract();
    let text = out.stdout.trim();
    if text.is_empty() {
        return None;
    }
    let v: Value = serde_json::from_str(text).unwrap();
    assert_eq!(v["hookSpecificOutput"]["hookEventName"], "SessionStart");
    Some(
        v["hookSpecificOutput"]["additionalContext"]
            .as_str()
            .unwrap()
            .to_owned(),
    )
}

/// A handoff as GSD writes it: fields baton does not know, numeric ids, nulls, a task as text.
const GSD_HANDOFF: &str = r#"{"version":"1.0","timestamp":"2026-11-29T18:00:00Z","phase":3,"phase_name":"Cart","plan":2,
 "task":1,"total_tasks":3,"status":"paused","git_branch":"feat/cart","session_id":"gsd-1","resume_command":"/gsd:resume-work",
 "completed_tasks":[{"id":1,"name":"Model","status":"done","commit":"abc1234","files":["src/cart.rs"]}],
 "remaining_tasks":["Wire the DELETE route",{"id":3,"name":"UI","status":"pending","progress":"0%"}],
 "blockers":[{"description":"Staging is down","type":"external","workaround":null}],
 "human_actions_pending":[{"action":"Rotate the API key","context":"leaked","blocking":null}],
 "decisions":[{"decision":"Carts expire after 30 days","rationale":"storage","phase":3}],
 "uncommitted_files":null,"next_action":"Finish the DELETE route","context_notes":null}"#;
