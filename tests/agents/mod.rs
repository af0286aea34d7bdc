//! `baton agents` and the SubagentStart/SubagentStop hooks, through the built binary: the
//! ledger from payloads shaped like the real client's, the spot-check against a real git
//! repository, plan waves and context payloads from realistic `.planning/` trees.

mod background;
mod ledger;
mod plans;
mod verify;

use std::fs;
use std::path::PathBuf;

use serde_json::{Value, json};

use crate::common::{Outcome, Sandbox, fixture, git_repo, native};

const AGENT: &str = "a9f371828cb2429bb";

/// The captured SubagentStart payload, moved into the sandbox's project.
fn start_payload(sandbox: &Sandbox, agent: &str) -> Value {
    let mut p = fixture("subagentstart.json");
    p["cwd"] = json!(native(&sandbox.project));
    p["agent_id"] = json!(agent);
    p
}

/// The captured SubagentStop payload with `message` as the agent's final message.
fn stop_payload(sandbox: &Sandbox, agent: &str, message: &str) -> Value {
    let mut p = fixture("subagentstop.json");
    p["cwd"] = json!(native(&sandbox.project));
    p["agent_id"] = json!(agent);
    p["last_assistant_message"] = json!(message);
    p
}

fn ledger_file(sandbox: &Sandbox, agent: &str) -> PathBuf {
    sandbox.project.join(format!(".baton/agents/{agent}.json"))
}

/// The additionalContext of a hook's output for `event`, if any.
#[track_caller]
fn context_of(out: &Outcome, event: &str) -> Option<String> {
    out.assert_hook_contract();
    let text = out.stdout.trim();
    if text.is_empty() {
        return None;
    }
    let v: Value = serde_json::from_str(text).unwrap();
    assert_eq!(v["hookSpecificOutput"]["hookEventName"], event, "{text}");
    Some(
        v["hookSpecificOutput"]["additionalContext"]
            .as_str()
            .unwrap()
            .to_owned(),
    )
}

/// A repository with one commit, plus a file that is already dirty before any agent starts.
fn repo(sandbox: &Sandbox) -> String {
    // `.baton/` is deliberately not ignored: baton's own files must never count as the agent's.
    let head = git_repo(
        &sandbox.project,
        &[("README.md", "# demo\n"), ("src/lib.rs", "pub fn a() {}\n")],
    );
    fs::write(sandbox.project.join("src/lib.rs"), "pub fn a() {} // wip\n").unwrap();
    head
}

/// The captured PostToolUse payload as sent from inside subagent `agent` (it carries the
/// parent's session_id plus `agent_id`, observed on 2.1.197) for a `tool` call with `input`.
fn tool_payload(sandbox: &Sandbox, agent: &str, tool: &str, input: Value) -> Value {
    let mut p = fixture("posttooluse-bash.json");
    p["cwd"] = json!(native(&sandbox.project));
    p["session_id"] = fixture("subagentstart.json")["session_id"].clone();
    p["agent_id"] = json!(agent);
    p["agent_type"] = json!("general-purpose");
    p["tool_name"] = json!(tool);
    p["tool_input"] = input;
    p
}

/// Subagent `agent` writes `relative` with its Write tool: the file, then the hook call.
fn write_with_tool(sandbox: &Sandbox, agent: &str, relative: &str, contents: &str) {
    let path = sandbox.write(relative, contents);
    let input = json!({"file_path": native(&path), "content": contents});
    let out = sandbox.hook(&tool_payload(sandbox, agent, "Write", input));
    assert_eq!(out.stdout.trim(), "", "{out:?}");
    out.assert_hook_contract();
}

/// Phase 3 of a GSD project: five plans with overlaps, a same-wave dependency and a cycle;
/// phase 2 with one finished plan.
fn planning_tree(sandbox: &Sandbox) {
    sandbox.with_planning_state();
    sandbox.write(
        ".planning/ROADMAP.md",
        "# Roadmap\n\n- [x] **Phase 2: Data** - schema\n- [ ] **Phase 3: API** - endpoints\n",
    );
    sandbox.write(
        ".planning/phases/02-data/02-01-PLAN.md",
        "---\nphase: 02-data\nplan: 01\nwave: 1\ndepends_on: []\nfiles_modified: [db/schema.sql]\n---\n",
    );
    sandbox.write(".planning/phases/02-data/02-01-SUMMARY.md", "# Summary 02-01\n");
    let phase = ".planning/phases/03-api";
    sandbox.write(&format!("{phase}/03-CONTEXT.md"), "# Phase 3 context\n");
    sandbox.write(&format!("{phase}/03-RESEARCH.md"), &"research ".repeat(300));
    let plans = [
        (
            "03-01",
            "wave: 1\ndepends_on: [\"02-01\"]\nfiles_modified:\n  - src/api/users.ts\n  - src/db.ts",
        ),
        (
            "03-02",
            "wave: 1\ndepends_on: []\nfiles_modified: [src/api/users.ts, src/api/auth.ts]",
        ),
        (
            "03-03",
            "wave: 2\ndepends_on: [\"03-01\", \"03-04\"]\nfiles_modified: [src/api/routes.ts]",
        ),
        (
            "03-04",
            "wave: 2\ndepends_on: [\"03-01\"]\nfiles_modified: [src/middleware/]",
        ),
        ("03-05", "depends_on: [\"03-06\"]\nfiles_modified: []"),
        ("03-06", "depends_on: [\"05\"]\nfiles_modified: []"),
    ];
    for (id, front) in plans {
        sandbox.write(&format!("{phase}/{id}-PLAN.md"), &format!("---\nphase: 03-api\nplan: {}\ntype: execute\n{front}\nautonomous: true\n---\n\n<objective>x</objective>\n", &id[3..]));
    }
    sandbox.write(&format!("{phase}/03-01-SUMMARY.md"), "# Summary 03-01\n");
}
