//! The bridge through the ledger: SubagentStop stores the handoff of the files a run
//! changed, SubagentStart gives the next subagent of the same session what the ones before
//! it built, and `baton bridge` reads a recorded run (by id, by agent name, `last`).

use serde_json::{Value, json};

use super::{baton, bridge_json};
use crate::common::{Outcome, Sandbox, fixture, git, git_repo, native, subagent_event};

const SESSION: &str = "fc61ec7d-0dfe-4ee4-950f-740b3bafe0b9";

pub(super) fn start(sandbox: &Sandbox, agent: &str, agent_type: &str) -> Outcome {
    let out = sandbox.hook(&subagent_event(sandbox, "SubagentStart", agent, agent_type));
    out.assert_hook_contract();
    out
}

pub(super) fn stop(sandbox: &Sandbox, agent: &str, agent_type: &str, message: &str) -> Outcome {
    let mut p = subagent_event(sandbox, "SubagentStop", agent, agent_type);
    p["last_assistant_message"] = json!(message);
    let out = sandbox.hook(&p);
    out.assert_hook_contract();
    out
}

/// The additionalContext of a SubagentStart output, if any.
pub(super) fn start_context(out: &Outcome) -> Option<String> {
    let text = out.stdout.trim();
    if text.is_empty() {
        return None;
    }
    let v: Value = serde_json::from_str(text).unwrap();
    assert_eq!(v["hookSpecificOutput"]["hookEventName"], "SubagentStart", "{text}");
    v["hookSpecificOutput"]["additionalContext"].as_str().map(str::to_owned)
}

pub(super) fn run_record(sandbox: &Sandbox, agent: &str) -> Value {
    sandbox.read_json(&sandbox.project.join(format!(".baton/agents/{agent}.json")))
}

const MIGRATION: &str = "CREATE TABLE users (\n  id bigserial PRIMARY KEY,\n  email text NOT NULL UNIQUE,\n  \
                         display_name text\n);\nCREATE INDEX users_email_idx ON users (lower(email));\n";

#[test]
fn the_next_subagent_starts_with_what_the_previous_one_built() {
    let sandbox = Sandbox::new();
    git_repo(
        &sandbox.project,
        &[("README.md", "# app\n"), (".gitignore", "build/\n")],
    );
    sandbox.write(".baton/config.json", r#"{"bridge": {"finding_prefixes": ["SEC"]}}"#);

    let first = start(&sandbox, "adb0000000000001", "db-coding-agent");
    assert_eq!(start_context(&first), None, "nothing finished yet");
    sandbox.write("db/migrations/001_users.sql", MIGRATION);
    sandbox.write("build/generated.sql", "CREATE TABLE build_only (id int);");
    git(&sandbox.project, &["add", "db"]);
    git(
        &sandbox.project,
        &["commit", "-q", "-m", "Users table (SEC-31: unique emails)"],
    );
    let stopped = stop(
        &sandbox,
        "adb0000000000001",
        "db-coding-agent",
        "Created the users table.",
    );
    assert_eq!(
        stopped.stdout.trim(),
        "",
        "an honest run is not told anything: {stopped:?}"
    );

    let run = run_record(&sandbox, "adb0000000000001");
    let handoff = &run["handoff"];
    assert_eq!(handoff["agent"], "db-coding-agent", "{run:#}");
    assert_eq!(handoff["domain"], "db");
    assert_eq!(handoff["runId"], "adb0000000000001");
    assert_eq!(handoff["structured"]["tables"][0]["name"], "users", "{handoff:#}");
    assert_eq!(
        handoff["structured"]["findings"],
        json!([{"id": "SEC-31", "file": format!("commit {}", &git(&sandbox.project, &["rev-parse", "HEAD"])[..12]), "line": 1}])
    );
    assert_eq!(
        handoff["artifacts"],
        json!([{"path": "db/migrations/001_users.sql", "type": "migration", "names": ["users", "users_email_idx"]}])
    );

    // The backend agent of the same session starts with the table and its columns.
    let next = start(&sandbox, "abe0000000000002", "backend-agent");
    let context = start_context(&next).expect("the next subagent is told");
    assert!(context.contains("Handoff from db-coding-agent (db):"), "{context}");
    assert!(
        context.contains(
            "- users [db/migrations/001_users.sql]: id bigserial PK, email TEXT NOT NULL UNIQUE, display_name TEXT"
        ),
        "{context}"
    );
    assert!(context.contains("users_email_idx ON users (lower(email))"), "{context}");
    assert!(context.contains("SEC-31"), "{context}");

    // A subagent of another session is told nothing.
    let mut other = subagent_event(&sandbox, "SubagentStart", "aff0000000000003", "backend-agent");
    other["session_id"] = json!("another-session");
    let out = sandbox.hook(&other);
    out.assert_hook_contract();
    assert_eq!(start_context(&out), None);
}

#[test]
fn files_written_with_tools_count_and_ignored_ones_do_not() {
    let sandbox = Sandbox::new();
    git_repo(
        &sandbox.project,
        &[("README.md", "# app\n"), (".gitignore", "build/\n")],
    );
    start(&sandbox, "a5e0000000000001", "devops-engineer");
    let ci = "name: CI\non: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    env:\n      DATABASE_URL: postgres://x\n    steps:\n      - run: make test\n";
    for (relative, contents) in [(".github/workflows/ci.yml", ci), ("build/out.yml", "x: 1")] {
        let path = sandbox.write(relative, contents);
        let mut p = fixture("posttooluse-bash.json");
        p["cwd"] = json!(native(&sandbox.project));
        p["session_id"] = json!(SESSION);
        p["agent_id"] = json!("a5e0000000000001");
        p["tool_name"] = json!("Write");
        p["tool_input"] = json!({"file_path": native(&path), "content": contents});
        sandbox.hook(&p).assert_hook_contract();
    }
    stop(&sandbox, "a5e0000000000001", "devops-engineer", "Added CI.");
    let handoff = &run_record(&sandbox, "a5e0000000000001")["handoff"];
    assert_eq!(
        handoff["structured"]["pipelines"][0]["jobs"],
        json!(["test"]),
        "{handoff:#}"
    );
    assert_eq!(handoff["structured"]["envVars"][0]["name"], "DATABASE_URL");
    assert_eq!(handoff["files"]["ignored"], 1, "build/out.yml: {handoff:#}");
}

#[test]
fn a_run_with_nothing_to_extract_hands_over_its_final_message() {
    let sandbox = Sandbox::new();
    git_repo(&sandbox.project, &[("README.md", "# app\n")]);
    start(&sandbox, "a0d0000000000001", "docs-writer");
    sandbox.write("README.md", "# app\n\nHow to run it.\n");
    stop(
        &sandbox,
        "a0d0000000000001",
        "docs-writer",
        "Documented how to run the app.",
    );
    let handoff = &run_record(&sandbox, "a0d0000000000001")["handoff"];
    assert_eq!(handoff["summary"], "(unstructured) Documented how to run the app.");
    assert_eq!(
        handoff["artifacts"],
        json!([{"path": "README.md", "type": "file", "names": []}])
    );
    let next = start(&sandbox, "a0d0000000000002", "reviewer");
    let context = start_context(&next).unwrap();
    assert!(
        context.contains("(unstructured) Documented how to run the app."),
        "{context}"
    );
}

#[test]
fn bridge_reads_recorded_runs_by_id_name_and_last_with_a_ticket() {
    let sandbox = Sandbox::new();
    let head = git_repo(&sandbox.project, &[("README.md", "# app\n")]);
    start(&sandbox, "adb1111111111111", "db-coding-agent");
    sandbox.write("db/migrations/001_users.sql", MIGRATION);
    stop(
        &sandbox,
        "adb1111111111111",
        "db-coding-agent",
        "Created the users table.",
    );
    sandbox.write("story.md", "---\nid: PROJ-42\n---\n# Story 1.2: User accounts\n");

    let by_name = bridge_json(&sandbox, &["--agent", "db-coding-agent", "--ticket", "story.md"]);
    assert_eq!(by_name["runId"], "adb1111111111111");
    assert_eq!(by_name["ticket"]["id"], "PROJ-42");
    let summary = by_name["summary"].as_str().unwrap();
    assert!(
        summary.starts_with("db-coding-agent (db) for PROJ-42 \"User accounts\" changed 1 file: 1 table (users); 1 index (users_email_idx)."),
        "{summary}"
    );
    // Stored with the run, ticket and all.
    assert_eq!(
        run_record(&sandbox, "adb1111111111111")["handoff"]["ticket"]["id"],
        "PROJ-42"
    );

    for agent in ["last", "adb111111111", "adb1111111111111"] {
        let handoff = bridge_json(&sandbox, &["--agent", agent]);
        assert_eq!(handoff["structured"]["tables"][0]["name"], "users", "--agent {agent}");
    }
    let since = bridge_json(&sandbox, &["--since", &head, "--agent", "reviewer"]);
    assert_eq!(since["agent"], "reviewer");
    assert_eq!(since["runId"], Value::Null);
    assert_eq!(
        since["structured"]["migrations"],
        json!(["db/migrations/001_users.sql"])
    );

    let text = baton(&sandbox, &["bridge"]);
    assert_eq!(text.code, Some(0), "{text:?}");
    assert!(
        text.stdout
            .contains("Artifacts:\n  db/migrations/001_users.sql  migration  users, users_email_idx"),
        "{}",
        text.stdout
    );
    assert!(
        text.stdout
            .contains("Context for the next agent:\nHandoff from db-coding-agent (db):"),
        "{}",
        text.stdout
    );
}

#[test]
fn usage_errors_say_what_to_do() {
    let sandbox = Sandbox::new();
    git_repo(&sandbox.project, &[("README.md", "# app\n")]);
    let none = baton(&sandbox, &["bridge"]);
    assert_eq!(none.code, Some(2), "{none:?}");
    assert!(
        none.stderr.contains("--agent NAME|RUN, --files P…, or --since REV"),
        "{none:?}"
    );
    let unknown = baton(&sandbox, &["bridge", "--agent", "db-coding-agent"]);
    assert_eq!(unknown.code, Some(2), "{unknown:?}");
    assert!(
        unknown.stderr.contains("no finished run of 'db-coding-agent'"),
        "{unknown:?}"
    );
    let bad_rev = baton(&sandbox, &["bridge", "--since", "no-such-branch"]);
    assert_eq!(bad_rev.code, Some(2), "{bad_rev:?}");
    assert!(
        bad_rev.stderr.contains("--since no-such-branch: not a commit"),
        "{bad_rev:?}"
    );
    let both = baton(&sandbox, &["bridge", "--files", "a", "--since", "HEAD"]);
    assert_eq!(both.code, Some(2), "{both:?}");
    let stray = baton(&sandbox, &["bridge", "db/x.sql"]);
    assert!(
        stray.code == Some(2) && stray.stderr.contains("files go after --files"),
        "{stray:?}"
    );
    let help = baton(&sandbox, &["bridge", "--help"]);
    assert!(
        help.code == Some(0) && help.stdout.contains("Examples:\n  baton bridge "),
        "{help:?}"
    );
}

/// With a context store, the two kinds of SubagentStart context share Claude Code's one cap:
/// the starting agent's own inputs come first, the handoffs of the agents before it get what
/// is left; and a finished agent's handoff is recorded in the store as its output.
#[test]
fn the_stores_inputs_come_first_and_the_handoffs_share_the_cap() {
    let sandbox = Sandbox::new();
    git_repo(&sandbox.project, &[("README.md", "# app\n")]);
    let ctx = |args: &[&str]| {
        let mut all = vec!["ctx"];
        all.extend_from_slice(args);
        let out = baton(&sandbox, &all);
        assert_eq!(out.code, Some(0), "{out:?}");
    };
    ctx(&["init", "--project", "app"]);
    ctx(&["agent", "db-coding-agent", "--status", "pending"]);
    // Inputs of about 6,000 UTF-16 units (each emoji counts 2): room is left for a handoff.
    let brief = "🚀".repeat(3_000);
    ctx(&[
        "set",
        "agents.backend-agent.inputs.brief",
        &brief,
        "--as",
        "orchestrator",
    ]);

    start(&sandbox, "adb0000000000001", "db-coding-agent");
    sandbox.write("db/migrations/001_users.sql", MIGRATION);
    stop(
        &sandbox,
        "adb0000000000001",
        "db-coding-agent",
        "Created the users table.",
    );
    let stored = baton(
        &sandbox,
        &["ctx", "get", "agents.db-coding-agent.outputs.handoff", "--json"],
    );
    let stored: Value = serde_json::from_str(&stored.stdout).unwrap_or_else(|e| panic!("{e}: {stored:?}"));
    assert_eq!(stored["file_path"], "db/migrations/001_users.sql", "{stored:#}");
    assert_eq!(stored["structured_data"]["structured"]["tables"][0]["name"], "users");

    let context = start_context(&start(&sandbox, "abe0000000000002", "backend-agent")).expect("told");
    let units: usize = context.chars().map(char::len_utf16).sum();
    assert!(units <= 10_000, "{units} UTF-16 units: over Claude Code's cap");
    let inputs_at = context
        .find("your inputs as agent \"backend-agent\"")
        .expect("the store's inputs");
    let handoff_at = context.find("Handoff from db-coding-agent (db):").expect("the handoff");
    assert!(inputs_at < handoff_at, "inputs first:\n{context}");
    assert!(context.contains(&brief), "the whole brief");
    assert!(context.contains("- users [db/migrations/001_users.sql]"), "{context}");

    // Inputs that fill the cap alone leave the handoffs out, and the text stays under it.
    let huge = "🚀".repeat(6_000);
    ctx(&[
        "set",
        "agents.backend-agent.inputs.brief",
        &huge,
        "--as",
        "orchestrator",
    ]);
    let context = start_context(&start(&sandbox, "abe0000000000003", "backend-agent")).expect("told");
    let units: usize = context.chars().map(char::len_utf16).sum();
    assert!(units <= 10_000, "{units} UTF-16 units: over Claude Code's cap");
    assert!(!context.contains("<persisted-output>"));
}
