//! The spot-check of what a finished run claims: files never written, commits that do not
//! exist, plans without a SUMMARY, parallel runs, and words that only look like commits.

use std::fs;

use serde_json::{Value, json};

use super::{
    AGENT, context_of, ledger_file, planning_tree, repo, start_payload, stop_payload, tool_payload, write_with_tool,
};
use crate::common::{Sandbox, git_repo, native, verdicts};

#[test]
fn verify_catches_a_file_never_written_and_a_commit_that_does_not_exist() {
    let sandbox = Sandbox::new();
    repo(&sandbox);
    sandbox.hook(&start_payload(&sandbox, AGENT));
    sandbox.write("db/001_users.sql", "create table users (id int);\n");
    let lie = "Created db/001_users.sql and src/routes/users.ts; updated src/lib.rs. Committed as 4f2a9c1d.";
    let out = sandbox.hook(&stop_payload(&sandbox, AGENT, lie));

    // SubagentStop context reaches the subagent itself: it is told what does not hold.
    let told = context_of(&out, "SubagentStop").expect("the subagent is told");
    assert!(
        told.starts_with("baton spot-check: your final report does not match the repository:"),
        "{told}"
    );
    for reason in [
        "- src/routes/users.ts does not exist",
        "- src/lib.rs exists but did not change during the run",
        "- commit 4f2a9c1d does not exist in this repository",
    ] {
        assert!(told.contains(reason), "{reason} missing from {told}");
    }
    assert!(
        !told.contains("db/001_users.sql"),
        "the true claim is not listed: {told}"
    );

    // If it stops again with the same report (stop_hook_active), it is not told twice.
    let mut again = stop_payload(&sandbox, AGENT, lie);
    again["stop_hook_active"] = json!(true);
    assert_eq!(context_of(&sandbox.hook(&again), "SubagentStop"), None);

    // The orchestrator learns it when its Agent call returns.
    let post = json!({"session_id": "fc61ec7d-0dfe-4ee4-950f-740b3bafe0b9", "cwd": native(&sandbox.project),
        "hook_event_name": "PostToolUse", "tool_name": "Agent",
        "tool_input": {"description": "db", "prompt": "create the users table", "subagent_type": "general-purpose"},
        "tool_response": {"status": "completed", "agentId": AGENT, "agentType": "general-purpose",
                          "content": [{"type": "text", "text": lie}]},
        "tool_use_id": "toolu_1", "duration_ms": 4000});
    let orchestrator = context_of(&sandbox.hook(&post), "PostToolUse").expect("the orchestrator is told");
    assert!(
        orchestrator.starts_with(&format!(
            "baton spot-check: the general-purpose run {AGENT} reported work"
        )),
        "{orchestrator}"
    );
    assert!(orchestrator.contains(&format!("`baton agents verify {AGENT}`")));

    let verify = sandbox.run(&["agents", "verify", "a9f3"], b"");
    assert_eq!(verify.code, Some(1), "{verify:?}");
    assert!(
        verify
            .stdout
            .contains("ok  file db/001_users.sql: changed during the run"),
        "{}",
        verify.stdout
    );
    assert!(
        verify
            .stdout
            .contains("NO  file src/routes/users.ts: src/routes/users.ts does not exist"),
        "{}",
        verify.stdout
    );
    assert!(verify.stdout.contains("NO  commit 4f2a9c1d:"), "{}", verify.stdout);
    assert!(
        verify.stdout.contains("FLAGGED: 3 claims refuted."),
        "{}",
        verify.stdout
    );
    assert!(
        verify.stderr.contains(&format!(
            "run {AGENT} is flagged: 3 claims of its final message do not hold"
        )),
        "{verify:?}"
    );

    let json = sandbox.run(&["agents", "verify", "last", "--json"], b"");
    let v: Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(v["verification"]["flagged"], true);
    assert_eq!(v["verification"]["checks"].as_array().unwrap().len(), 4);
}

#[test]
fn without_git_files_are_judged_by_time_and_commits_are_left_unchecked() {
    let sandbox = Sandbox::new();
    sandbox.with_planning_state();
    sandbox.write("notes/old.md", "before\n");
    let past = std::time::SystemTime::now() - std::time::Duration::from_secs(600);
    fs::File::options()
        .write(true)
        .open(sandbox.project.join("notes/old.md"))
        .unwrap()
        .set_modified(past)
        .unwrap();
    sandbox.hook(&start_payload(&sandbox, AGENT));
    sandbox.write("notes/new.md", "written by the agent\n");
    let out = sandbox.hook(&stop_payload(
        &sandbox,
        AGENT,
        "Created notes/new.md, updated notes/old.md; committed as 4f2a9c1d.",
    ));
    let told = context_of(&out, "SubagentStop").expect("notes/old.md did not change");
    assert!(
        told.contains("- notes/old.md exists but did not change during the run (last modified "),
        "{told}"
    );
    let run = sandbox.read_json(&ledger_file(&sandbox, AGENT));
    assert_eq!(run["files_changed"], Value::Null, "{run:#}");
    assert!(
        run["notes"][0].as_str().unwrap().contains("not a git work tree"),
        "{run:#}"
    );
    assert_eq!(
        verdicts(&run["verification"]),
        [
            ("notes/new.md", "confirmed"),
            ("notes/old.md", "refuted"),
            ("4f2a9c1d", "unchecked")
        ]
    );
}

#[test]
fn a_plan_reported_complete_needs_its_summary() {
    let sandbox = Sandbox::new();
    planning_tree(&sandbox);
    git_repo(&sandbox.project, &[(".gitignore", ".baton/\n")]);
    sandbox.hook(&start_payload(&sandbox, AGENT));
    let out = sandbox.hook(&stop_payload(&sandbox, AGENT, "Plan 03-02 complete: all tasks done."));
    let told = context_of(&out, "SubagentStop").unwrap();
    assert!(
        told.contains("plan 03-02 is reported complete but .planning/phases/03-api/03-02-SUMMARY.md does not exist"),
        "{told}"
    );

    sandbox.hook(&start_payload(&sandbox, "b1"));
    sandbox.write(".planning/phases/03-api/03-02-SUMMARY.md", "# 03-02 summary\n");
    let out = sandbox.hook(&stop_payload(&sandbox, "b1", "Plan 03-02 complete: all tasks done."));
    assert_eq!(context_of(&out, "SubagentStop"), None);
}

/// Subagent `agent` writes `relative` through a shell command: git sees it, no tool path does.
fn write_with_bash(sandbox: &Sandbox, agent: &str, relative: &str, contents: &str) {
    sandbox.write(relative, contents);
    let input = json!({"command": format!("echo > {relative}"), "description": "write"});
    sandbox
        .hook(&tool_payload(sandbox, agent, "Bash", input))
        .assert_hook_contract();
}

#[test]
fn parallel_runs_do_not_confirm_each_others_files() {
    let sandbox = Sandbox::new();
    repo(&sandbox);
    let (a, b) = ("a1111111111111111", "b2222222222222222");
    sandbox.hook(&start_payload(&sandbox, a));
    sandbox.hook(&start_payload(&sandbox, b));
    // A works through Bash only; B writes with its Write tool; both at the same time.
    write_with_bash(&sandbox, a, "notes/a.txt", "from a\n");
    write_with_tool(&sandbox, b, "db/b.sql", "create table b (id int);\n");
    write_with_tool(&sandbox, b, "db/b.sql", "create table b (id int, x int);\n");
    let run_b = sandbox.read_json(&ledger_file(&sandbox, b));
    assert_eq!(run_b["tool_edits"], json!(["db/b.sql"]), "{run_b:#}");
    assert_eq!(
        sandbox.read_json(&ledger_file(&sandbox, a))["tool_edits"],
        json!([]),
        "a Bash call records nothing"
    );

    // A claims B's file as well as its own.
    let out = sandbox.hook(&stop_payload(&sandbox, a, "Created notes/a.txt and db/b.sql."));
    let told = context_of(&out, "SubagentStop").expect("A claimed B's work");
    assert!(
        told.contains(&format!(
            "- db/b.sql was written by run {b}, which ran at the same time, not by this one"
        )),
        "{told}"
    );
    let run_a = sandbox.read_json(&ledger_file(&sandbox, a));
    assert_eq!(
        verdicts(&run_a["verification"]),
        [("notes/a.txt", "confirmed"), ("db/b.sql", "refuted")],
        "{run_a:#}"
    );

    // B claims its own file (confirmed by its own edits) and A's Bash-written one: git saw
    // it change, but B recorded edits of its own and this is not one of them.
    let out = sandbox.hook(&stop_payload(&sandbox, b, "Created db/b.sql and notes/a.txt."));
    assert_eq!(context_of(&out, "SubagentStop"), None);
    let run_b = sandbox.read_json(&ledger_file(&sandbox, b));
    assert_eq!(
        verdicts(&run_b["verification"]),
        [("db/b.sql", "confirmed"), ("notes/a.txt", "unchecked")],
        "{run_b:#}"
    );
    assert_eq!(
        run_b["verification"]["checks"][0]["detail"],
        "written by this run's own edits"
    );

    // A later run, not overlapping B, that changes B's file through Bash is not refuted.
    std::thread::sleep(std::time::Duration::from_millis(5));
    let c = "c3333333333333333";
    sandbox.hook(&start_payload(&sandbox, c));
    write_with_bash(&sandbox, c, "db/b.sql", "create table b (id int, x int, y int);\n");
    let out = sandbox.hook(&stop_payload(&sandbox, c, "Updated db/b.sql."));
    assert_eq!(context_of(&out, "SubagentStop"), None);
    let verify = sandbox.run(&["agents", "verify", a], b"");
    assert_eq!(verify.code, Some(1), "{verify:?}");
    assert!(
        verify
            .stdout
            .contains(&format!("NO  file db/b.sql: db/b.sql was written by run {b}")),
        "{}",
        verify.stdout
    );
}

#[test]
fn commits_of_hex_letters_only_are_checked_and_ordinary_words_are_not() {
    let sandbox = Sandbox::new();
    repo(&sandbox);
    sandbox.hook(&start_payload(&sandbox, AGENT));
    sandbox.write("src/api.rs", "pub fn users() {}\n");
    let out = sandbox.hook(&stop_payload(
        &sandbox,
        AGENT,
        "Created src/api.rs. Committed as deadbee.",
    ));
    let told = context_of(&out, "SubagentStop").expect("deadbee is not a commit here");
    assert!(
        told.contains("- commit deadbee does not exist in this repository"),
        "{told}"
    );

    sandbox.hook(&start_payload(&sandbox, "b1"));
    sandbox.write("src/api.rs", "pub fn users() -> u8 { 1 }\n");
    let honest = "Updated src/api.rs; committed nothing, the defaced banner and effaced header stay as they are.";
    let out = sandbox.hook(&stop_payload(&sandbox, "b1", honest));
    assert_eq!(context_of(&out, "SubagentStop"), None);
    let run = sandbox.read_json(&ledger_file(&sandbox, "b1"));
    assert_eq!(verdicts(&run["verification"]), [("src/api.rs", "confirmed")], "{run:#}");
}
