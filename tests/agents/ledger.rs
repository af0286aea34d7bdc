//! The SubagentStart/SubagentStop hooks and the ledger: each run recorded with the files it
//! changed, its own tool edits, hostile payloads, and records of older versions.

use std::fs;

use serde_json::{Value, json};

use super::{AGENT, context_of, ledger_file, repo, start_payload, stop_payload, tool_payload, write_with_tool};
use crate::common::{Sandbox, git, native};

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
fn hostile_subagent_payloads_exit_0_silently() {
    let sandbox = Sandbox::new();
    repo(&sandbox);
    let huge = "Created x.rs. ".repeat(200_000);
    let cases = vec![
        json!({"hook_event_name": "SubagentStart", "cwd": native(&sandbox.project), "agent_id": "../../etc/passwd"}),
        json!({"hook_event_name": "SubagentStop", "cwd": native(&sandbox.project)}),
        json!({"hook_event_name": "SubagentStop", "cwd": native(&sandbox.project), "agent_id": 42, "last_assistant_message": ["x"]}),
        json!({"hook_event_name": "SubagentStart", "cwd": "/nonexistent/dir", "agent_id": "a1"}),
        json!({"hook_event_name": "SubagentStart", "cwd": "relative/path", "agent_id": "a2", "agent_type": {"x": 1}}),
        json!({"hook_event_name": "SubagentStop", "cwd": native(&sandbox.project), "agent_id": "a3", "last_assistant_message": huge}),
        json!({"hook_event_name": "SubagentStop", "cwd": native(&sandbox.project), "agent_id": "a4", "stop_hook_active": "yes",
               "agent_transcript_path": null, "last_assistant_message": "Committed as 0123456789abcdef0123456789abcdef01234567; removed /etc/passwd."}),
        json!({"hook_event_name": "PostToolUse", "cwd": native(&sandbox.project), "tool_name": "Agent", "tool_response": "text"}),
        json!({"hook_event_name": "PostToolUse", "cwd": native(&sandbox.project), "tool_name": "Agent", "tool_response": {"agentId": "../x"}}),
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
        json!({"file_path": native(&path), "old_string": "", "new_string": ""}),
    );
    main.as_object_mut().unwrap().remove("agent_id");
    sandbox.hook(&main).assert_hook_contract();
    sandbox.hook(&tool_payload(
        &sandbox,
        "d4444444444444444",
        "Write",
        json!({"file_path": native(&path)}),
    ));
    sandbox.hook(&tool_payload(
        &sandbox,
        "../x",
        "Write",
        json!({"file_path": native(&path)}),
    ));
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
        "cwd": native(&sandbox.project), "worktree": started["worktree"],
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
