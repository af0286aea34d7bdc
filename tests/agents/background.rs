//! Claude Code 2.1.332 runs agents in the background by default: the `Agent` call returns at
//! launch (`status: "async_launched"`) and the run ends later. A run still flagged at its
//! final SubagentStop is told to the orchestrator at its next tool call, once. And every
//! compaction's summarising fork ends with a SubagentStop that is no run at all.

use serde_json::{Value, json};

use super::{context_of, ledger_file, repo};
use crate::common::{Sandbox, latest_fixture, native};

const LIE: &str = "Created notes/greeting.txt and src/users.sql; committed as 4f2a9c1d.";

/// A captured 2.1.332 payload moved into the sandbox's project, for the background run's session.
fn payload(sandbox: &Sandbox, name: &str) -> Value {
    let mut p = latest_fixture(name);
    p["cwd"] = json!(native(&sandbox.project));
    p["session_id"] = json!(SESSION);
    p
}

const SESSION: &str = "68514146-6a58-46d0-97f5-079a699e5e19";
const AGENT: &str = "aad77663257ed11f2";

fn stop(sandbox: &Sandbox, message: &str, again: bool) -> Value {
    let mut p = payload(sandbox, "subagentstop-background.json");
    p["last_assistant_message"] = json!(message);
    p["stop_hook_active"] = json!(again);
    p
}

/// A tool call of the orchestrator (the main agent: no `agent_id`).
fn main_tool_call(sandbox: &Sandbox) -> Value {
    let mut p = payload(sandbox, "posttooluse.json");
    p["tool_name"] = json!("Bash");
    p["tool_input"] = json!({"command": "git status"});
    p["tool_response"] = json!({"stdout": "", "stderr": "", "interrupted": false});
    p
}

fn started_in_background(sandbox: &Sandbox) {
    let mut start = payload(sandbox, "subagentstart.json");
    start["agent_id"] = json!(AGENT);
    assert_eq!(context_of(&sandbox.hook(&start), "SubagentStart"), None);
    let launched = payload(sandbox, "posttooluse-agent-background.json");
    assert_eq!(
        context_of(&sandbox.hook(&launched), "PostToolUse"),
        None,
        "nothing to tell at launch"
    );
}

#[test]
fn a_flagged_background_run_is_told_at_the_orchestrators_next_tool_call_once() {
    let sandbox = Sandbox::new();
    repo(&sandbox);
    started_in_background(&sandbox);
    sandbox.write("notes/greeting.txt", "hello\n");

    // The subagent is told first and may still correct itself: the orchestrator hears nothing yet.
    let told = context_of(&sandbox.hook(&stop(&sandbox, LIE, false)), "SubagentStop");
    assert!(told.is_some_and(|t| t.contains("src/users.sql does not exist")));
    assert_eq!(
        context_of(&sandbox.hook(&main_tool_call(&sandbox)), "PostToolUse"),
        None
    );

    // It stands by its report: the run's last word.
    assert_eq!(
        context_of(&sandbox.hook(&stop(&sandbox, LIE, true)), "SubagentStop"),
        None
    );
    // A tool call inside another subagent is not the orchestrator's.
    let mut inside = main_tool_call(&sandbox);
    inside["agent_id"] = json!("a0000000000000001");
    assert_eq!(context_of(&sandbox.hook(&inside), "PostToolUse"), None);

    let orchestrator = context_of(&sandbox.hook(&main_tool_call(&sandbox)), "PostToolUse")
        .expect("the orchestrator is told at its next tool call");
    assert!(
        orchestrator.starts_with(&format!(
            "baton spot-check: the general-purpose run {AGENT} reported work"
        )) && orchestrator.contains("src/users.sql does not exist")
            && orchestrator.contains("commit 4f2a9c1d does not exist"),
        "{orchestrator}"
    );
    assert_eq!(
        context_of(&sandbox.hook(&main_tool_call(&sandbox)), "PostToolUse"),
        None,
        "told once"
    );

    let run: Value = serde_json::from_slice(&std::fs::read(ledger_file(&sandbox, AGENT)).unwrap()).unwrap();
    assert_eq!(run["background"], true, "{run:#}");
    assert_eq!(run["verification"]["flagged"], true, "{run:#}");
}

#[test]
fn a_background_run_that_corrects_its_report_is_not_told() {
    let sandbox = Sandbox::new();
    repo(&sandbox);
    started_in_background(&sandbox);
    sandbox.write("notes/greeting.txt", "hello\n");
    sandbox.hook(&stop(&sandbox, LIE, false)).assert_hook_contract();
    let fixed = "Created notes/greeting.txt. I made no commit and no src/users.sql.";
    sandbox.hook(&stop(&sandbox, fixed, true)).assert_hook_contract();
    assert_eq!(
        context_of(&sandbox.hook(&main_tool_call(&sandbox)), "PostToolUse"),
        None
    );
}

#[test]
fn the_compaction_forks_subagent_stop_records_no_run() {
    let sandbox = Sandbox::new();
    repo(&sandbox);
    let fork = payload(&sandbox, "subagentstop-compaction.json");
    let agent = fork["agent_id"].as_str().unwrap().to_owned();
    // Its final message is the summary; it names files and commits that nobody made here.
    let mut fork = fork;
    fork["last_assistant_message"] =
        json!("<analysis>x</analysis><summary>Created src/users.sql; committed as 4f2a9c1d.</summary>");
    assert_eq!(context_of(&sandbox.hook(&fork), "SubagentStop"), None);
    assert!(
        !ledger_file(&sandbox, &agent).exists(),
        "no run for the compaction's fork"
    );
    let list = sandbox.run(&["agents", "list"], b"");
    assert!(!list.stdout.contains(&agent), "{list:?}");
}
