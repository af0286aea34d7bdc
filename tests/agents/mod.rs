//! `baton agents` and the SubagentStart/SubagentStop hooks, through the built binary: the
//! ledger from payloads shaped like the real client's, the spot-check against a real git
//! repository, plan waves and context payloads from realistic `.planning/` trees.

use std::fs;
use std::path::PathBuf;

use serde_json::{Value, json};

use crate::common::{Outcome, Sandbox, fixture, git, git_repo};

const AGENT: &str = "a9f371828cb2429bb";

/// The captured SubagentStart payload, moved into the sandbox's project.
fn start_payload(sandbox: &Sandbox, agent: &str) -> Value {
    let mut p = fixture("subagentstart.json");
    p["cwd"] = json!(sandbox.project);
    p["agent_id"] = json!(agent);
    p
}

/// The captured SubagentStop payload with `message` as the agent's final message.
fn stop_payload(sandbox: &Sandbox, agent: &str, message: &str) -> Value {
    let mut p = fixture("subagentstop.json");
    p["cwd"] = json!(sandbox.project);
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

#[test]
fn start_and_stop_record_the_run_and_the_files_it_changed() {
    let sandbox = Sandbox::new();
    let head = repo(&sandbox);

    let out = sandbox.hook(&start_payload(&sandbox, AGENT));
    assert_eq!(context_of(&out, "SubagentStart"), None);
    let run = sandbox.read_json(&ledger_file(&sandbox, AGENT));
    assert_eq!(run["status"], "running");
    assert_eq!(run["type"], "general-purpose");
    assert_eq!(run["session_id"], "fc61ec7d-0dfe-4ee4-950f-740b3bafe0b9");
    assert_eq!(run["head_at_start"], head.as_str());
    assert_eq!(run["branch_at_start"], "main");
    assert!(run["dirty_at_start"]["src/lib.rs"].is_string(), "{run:#}");

    // The agent's work: a new file, an edit, a commit of another new file.
    sandbox.write("db/001_users.sql", "create table users (id int);\n");
    sandbox.write("README.md", "# demo\n\nusers table\n");
    sandbox.write("src/api.rs", "pub fn users() {}\n");
    git(&sandbox.project, &["add", "src/api.rs"]);
    git(&sandbox.project, &["commit", "-q", "-m", "api"]);
    let commit = git(&sandbox.project, &["rev-parse", "--short", "HEAD"]);

    let message = format!("Created db/001_users.sql and src/api.rs, updated README.md. Committed as {commit}.");
    let out = sandbox.hook(&stop_payload(&sandbox, AGENT, &message));
    assert_eq!(context_of(&out, "SubagentStop"), None, "an honest run is not flagged");
    let run = sandbox.read_json(&ledger_file(&sandbox, AGENT));
    assert_eq!(run["status"], "finished");
    assert_eq!(
        run["files_changed"],
        json!(["README.md", "db/001_users.sql", "src/api.rs"]),
        "src/lib.rs was dirty before the agent started and untouched: {run:#}"
    );
    assert_eq!(run["last_message"], message.as_str());
    assert!(
        run["transcript_path"]
            .as_str()
            .unwrap()
            .ends_with("/subagents/agent-a9f371828cb2429bb.jsonl")
    );
    assert_eq!(run["verification"]["flagged"], false, "{run:#}");
    let verdicts: Vec<&str> = run["verification"]["checks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["verdict"].as_str().unwrap())
        .collect();
    assert_eq!(verdicts, ["confirmed"; 4], "{run:#}");

    let list = sandbox.run(&["agents", "list"], b"");
    assert_eq!(list.code, Some(0), "{list:?}");
    let row = list.stdout.lines().nth(1).unwrap();
    assert!(
        row.starts_with(AGENT)
            && row.contains("general-purpose")
            && row.contains("finished")
            && row.trim_end().ends_with("3      ok"),
        "{}",
        list.stdout
    );
}

#[test]
fn a_file_already_dirty_counts_once_the_agent_touches_it() {
    let sandbox = Sandbox::new();
    repo(&sandbox);
    sandbox.hook(&start_payload(&sandbox, AGENT));
    std::thread::sleep(std::time::Duration::from_millis(20));
    sandbox.write("src/lib.rs", "pub fn a() {} // wip, finished by the agent\n");
    sandbox.hook(&stop_payload(&sandbox, AGENT, "Updated src/lib.rs."));
    let run = sandbox.read_json(&ledger_file(&sandbox, AGENT));
    assert_eq!(run["files_changed"], json!(["src/lib.rs"]), "{run:#}");
    assert_eq!(run["verification"]["flagged"], false);
}

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
    let post = json!({"session_id": "fc61ec7d-0dfe-4ee4-950f-740b3bafe0b9", "cwd": sandbox.project,
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
    let verdicts = crate::common::verdicts(&run["verification"]);
    assert_eq!(
        verdicts,
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

#[test]
fn hostile_subagent_payloads_exit_0_silently() {
    let sandbox = Sandbox::new();
    repo(&sandbox);
    let huge = "Created x.rs. ".repeat(200_000);
    let cases = vec![
        json!({"hook_event_name": "SubagentStart", "cwd": sandbox.project, "agent_id": "../../etc/passwd"}),
        json!({"hook_event_name": "SubagentStop", "cwd": sandbox.project}),
        json!({"hook_event_name": "SubagentStop", "cwd": sandbox.project, "agent_id": 42, "last_assistant_message": ["x"]}),
        json!({"hook_event_name": "SubagentStart", "cwd": "/nonexistent/dir", "agent_id": "a1"}),
        json!({"hook_event_name": "SubagentStart", "cwd": "relative/path", "agent_id": "a2", "agent_type": {"x": 1}}),
        json!({"hook_event_name": "SubagentStop", "cwd": sandbox.project, "agent_id": "a3", "last_assistant_message": huge}),
        json!({"hook_event_name": "SubagentStop", "cwd": sandbox.project, "agent_id": "a4", "stop_hook_active": "yes",
               "agent_transcript_path": null, "last_assistant_message": "Committed as 0123456789abcdef0123456789abcdef01234567; removed /etc/passwd."}),
        json!({"hook_event_name": "PostToolUse", "cwd": sandbox.project, "tool_name": "Agent", "tool_response": "text"}),
        json!({"hook_event_name": "PostToolUse", "cwd": sandbox.project, "tool_name": "Agent", "tool_response": {"agentId": "../x"}}),
    ];
    for payload in &cases {
        let out = sandbox.hook(payload);
        out.assert_hook_contract();
        assert!(out.elapsed < std::time::Duration::from_secs(5), "{out:?}");
    }
    assert!(!sandbox.project.join(".baton/agents/../../etc").exists());
    // A corrupt ledger record is not overwritten; the hook still exits 0 silently.
    let path = ledger_file(&sandbox, "a5");
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(&path, "{not json").unwrap();
    let out = sandbox.hook(&stop_payload(&sandbox, "a5", "Created nothing."));
    assert_eq!(context_of(&out, "SubagentStop"), None);
    assert_eq!(fs::read_to_string(&path).unwrap(), "{not json");
    let list = sandbox.run(&["agents", "list"], b"");
    assert!(
        list.stdout.contains("unreadable:") && list.stdout.contains("a5.json"),
        "{list:?}"
    );
    // The long message is kept, clipped.
    let a3 = sandbox.read_json(&ledger_file(&sandbox, "a3"));
    assert!(a3["last_message"].as_str().unwrap().chars().count() <= 100_001);
}

/// The captured PostToolUse payload as sent from inside subagent `agent` (it carries the
/// parent's session_id plus `agent_id`, observed on 2.1.197) for a `tool` call with `input`.
fn tool_payload(sandbox: &Sandbox, agent: &str, tool: &str, input: Value) -> Value {
    let mut p = fixture("posttooluse-bash.json");
    p["cwd"] = json!(sandbox.project);
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
    let input = json!({"file_path": path, "content": contents});
    let out = sandbox.hook(&tool_payload(sandbox, agent, "Write", input));
    assert_eq!(out.stdout.trim(), "", "{out:?}");
    out.assert_hook_contract();
}

/// Subagent `agent` writes `relative` through a shell command: git sees it, no tool path does.
fn write_with_bash(sandbox: &Sandbox, agent: &str, relative: &str, contents: &str) {
    sandbox.write(relative, contents);
    let input = json!({"command": format!("echo > {relative}"), "description": "write"});
    sandbox
        .hook(&tool_payload(sandbox, agent, "Bash", input))
        .assert_hook_contract();
}

fn verdicts(run: &Value) -> Vec<(String, String)> {
    run["verification"]["checks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["claim"].as_str().unwrap().to_owned(),
                c["verdict"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect()
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
        verdicts(&run_a),
        pairs(&[("notes/a.txt", "confirmed"), ("db/b.sql", "refuted")]),
        "{run_a:#}"
    );

    // B claims its own file (confirmed by its own edits) and A's Bash-written one: git saw
    // it change, but B recorded edits of its own and this is not one of them.
    let out = sandbox.hook(&stop_payload(&sandbox, b, "Created db/b.sql and notes/a.txt."));
    assert_eq!(context_of(&out, "SubagentStop"), None);
    let run_b = sandbox.read_json(&ledger_file(&sandbox, b));
    assert_eq!(
        verdicts(&run_b),
        pairs(&[("db/b.sql", "confirmed"), ("notes/a.txt", "unchecked")]),
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
fn edit_calls_outside_a_subagent_or_of_unrecorded_runs_record_nothing() {
    let sandbox = Sandbox::new();
    repo(&sandbox);
    sandbox.hook(&start_payload(&sandbox, AGENT));
    // The orchestrator's own Edit (no agent_id) and an unknown run's Write.
    let path = sandbox.write("src/main.rs", "fn main() {}\n");
    let mut main = tool_payload(
        &sandbox,
        AGENT,
        "Edit",
        json!({"file_path": path, "old_string": "", "new_string": ""}),
    );
    main.as_object_mut().unwrap().remove("agent_id");
    sandbox.hook(&main).assert_hook_contract();
    sandbox.hook(&tool_payload(
        &sandbox,
        "d4444444444444444",
        "Write",
        json!({"file_path": path}),
    ));
    sandbox.hook(&tool_payload(&sandbox, "../x", "Write", json!({"file_path": path})));
    // A NotebookEdit inside the run is its own.
    let notebook = sandbox.write("nb/a.ipynb", "{}\n");
    sandbox.hook(&tool_payload(
        &sandbox,
        AGENT,
        "NotebookEdit",
        json!({"notebook_path": notebook, "new_source": "x"}),
    ));
    let run = sandbox.read_json(&ledger_file(&sandbox, AGENT));
    assert_eq!(run["tool_edits"], json!(["nb/a.ipynb"]), "{run:#}");
    assert!(!ledger_file(&sandbox, "d4444444444444444").exists());
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
    assert_eq!(verdicts(&run), pairs(&[("src/api.rs", "confirmed")]), "{run:#}");
}

#[test]
fn records_written_before_tool_edits_were_kept_still_list_and_verify() {
    let sandbox = Sandbox::new();
    repo(&sandbox);
    // A run recorded by the previous version: no `tool_edits`, finished, not yet verified.
    sandbox.hook(&start_payload(&sandbox, "b1"));
    let started = sandbox.read_json(&ledger_file(&sandbox, "b1"));
    sandbox.write("db/001_users.sql", "create table users (id int);\n");
    let old = json!({
        "id": AGENT, "type": "general-purpose", "status": "finished",
        "session_id": "fc61ec7d-0dfe-4ee4-950f-740b3bafe0b9",
        "started_at": started["started_at"], "ended_at": "2099-01-01T00:00:00.000Z",
        "cwd": sandbox.project, "worktree": started["worktree"],
        "head_at_start": started["head_at_start"], "branch_at_start": "main",
        "dirty_at_start": started["dirty_at_start"], "files_changed": ["db/001_users.sql"],
        "head_at_end": started["head_at_start"], "last_message": "Created db/001_users.sql.",
        "transcript_path": null, "verification": null, "notes": [], "generator": "baton"
    });
    sandbox.write(&format!(".baton/agents/{AGENT}.json"), &format!("{old:#}\n"));
    // An overlapping run of the new kind, with edits of its own elsewhere.
    write_with_tool(&sandbox, "b1", "src/b.rs", "pub fn b() {}\n");

    let list = sandbox.run(&["agents", "list"], b"");
    assert_eq!(list.code, Some(0), "{list:?}");
    assert!(
        list.stdout.contains(AGENT) && !list.stdout.contains("unreadable"),
        "{}",
        list.stdout
    );
    let verify = sandbox.run(&["agents", "verify", AGENT], b"");
    assert_eq!(verify.code, Some(0), "{verify:?}");
    assert!(
        verify
            .stdout
            .contains("ok  file db/001_users.sql: changed during the run"),
        "{}",
        verify.stdout
    );
    let json = sandbox.run(&["agents", "list", "--json"], b"");
    let v: Value = serde_json::from_str(&json.stdout).unwrap();
    let old = v["runs"].as_array().unwrap().iter().find(|r| r["id"] == AGENT).unwrap();
    assert_eq!(old["tool_edits"], json!([]));
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

#[test]
fn waves_report_overlaps_same_wave_dependencies_and_cycles() {
    let sandbox = Sandbox::new();
    planning_tree(&sandbox);
    let out = sandbox.run(&["agents", "waves"], b"");
    assert_eq!(out.code, Some(1), "{out:?}");
    assert_eq!(
        out.stdout,
        "Phase 3 (api): 6 plans in 2 waves\n  wave 1: 03-01, 03-02\n  wave 2: 03-03, 03-04\n  Problems:\n\
         \x20 - dependency cycle: 03-05 → 03-06 → 03-05\n\
         \x20 - 03-05 cannot be scheduled: it has no `wave:` and is in or behind a cycle\n\
         \x20 - 03-06 cannot be scheduled: it has no `wave:` and is in or behind a cycle\n\
         \x20 - wave 2: 03-03 depends on 03-04, which runs in the same wave\n\
         \x20 - wave 1: 03-01 and 03-02 both modify src/api/users.ts\n"
    );
    assert!(out.stderr.contains("5 problems make these waves unsafe"), "{out:?}");

    let json = sandbox.run(&["agents", "waves", "3", "--json"], b"");
    let v: Value = serde_json::from_str(&json.stdout).unwrap();
    let problems = v["phases"][0]["problems"].as_array().unwrap();
    assert!(
        problems.contains(
            &json!({"kind": "same_file", "wave": 1, "plans": ["03-01", "03-02"], "file": "src/api/users.ts"})
        )
    );
    assert!(problems.contains(&json!({"kind": "cycle", "plans": ["03-05", "03-06", "03-05"]})));

    let clean = sandbox.run(&["agents", "waves", "2"], b"");
    assert_eq!(
        (clean.code, clean.stdout.as_str()),
        (Some(0), "Phase 2 (data): 1 plans in 1 waves\n  wave 1: 02-01\n")
    );
    let missing = sandbox.run(&["agents", "waves", "9"], b"");
    assert_eq!(missing.code, Some(2));
    assert!(
        missing.stderr.contains("no phase '9'; the phases are: 2, 3"),
        "{missing:?}"
    );
}

#[test]
fn payload_lists_what_the_agent_must_read_with_sizes() {
    let sandbox = Sandbox::new();
    planning_tree(&sandbox);
    let out = sandbox.run(&["agents", "payload", "03-04"], b"");
    assert_eq!(out.code, Some(0), "{out:?}");
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert!(
        lines[0].starts_with("Read these files before starting plan 03-04 (paths relative to "),
        "{}",
        out.stdout
    );
    assert_eq!(
        &lines[1..7],
        [
            "- .planning/STATE.md (state, 144 B)",
            "- .planning/ROADMAP.md (roadmap, 79 B)",
            "- .planning/phases/03-api/03-CONTEXT.md (context, 18 B)",
            "- .planning/phases/03-api/03-RESEARCH.md (research, 2.6 KB)",
            "- .planning/phases/03-api/03-04-PLAN.md (plan, 152 B)",
            "- .planning/phases/03-api/03-01-SUMMARY.md (summary of 03-01, 16 B)",
        ]
    );
    assert_eq!(lines[7], "Total: 3.0 KB (~778 tokens)", "{}", out.stdout);

    // 03-03 waits for 03-04, which has no SUMMARY: the payload is printed, the exit says wait.
    let out = sandbox.run(&["agents", "payload", "3-3", "--json"], b"");
    assert_eq!(out.code, Some(1), "{out:?}");
    assert!(
        out.stderr
            .contains("plan 03-03 depends on 03-04, which has no SUMMARY yet: run it first"),
        "{out:?}"
    );
    let v: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(v["waiting_on"], json!(["03-04"]));
    assert_eq!(v["missing"][0]["path"], ".planning/phases/03-api/03-04-SUMMARY.md");
    let total: u64 = v["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["bytes"].as_u64().unwrap())
        .sum();
    assert_eq!(v["total_bytes"], total);

    let unknown = sandbox.run(&["agents", "payload", "07-01"], b"");
    assert_eq!(unknown.code, Some(2));
    assert!(
        unknown.stderr.contains("no plan '07-01'; the plans are: 02-01, 03-01"),
        "{unknown:?}"
    );
}
