//! The handoff bridge with the real client: the main agent runs a `db-coding-agent`
//! subagent (a project agent in `.claude/agents/`) that writes a migration with its Write
//! tool, then a `backend-coding-agent`. baton's SubagentStop stores what the first one built;
//! its SubagentStart must put the table and its columns in the second one's first request.

use std::fs;
use std::time::Duration;

use serde_json::{Value, json};

use super::client::{MODEL, baton_command, claude_command, output_within};
use super::mock::{Block, Mock, Reply};
use super::request::Request;
use super::sandbox::Sandbox;

const MAIN_PROMPT: &str = "build the accounts feature with the db and backend agents";
const DB_TASK: &str = "E2E-DB-TASK: create the accounts table migration";
const API_TASK: &str = "E2E-API-TASK: add the accounts endpoints";
const MIGRATION: &str = "CREATE TABLE accounts (\n  id bigserial PRIMARY KEY,\n  email text NOT NULL UNIQUE,\n  \
                         plan_tier varchar(20) NOT NULL DEFAULT 'free',\n  created_at timestamptz NOT NULL DEFAULT now()\n);\n\
                         CREATE INDEX accounts_plan_tier_idx ON accounts (plan_tier);\n";

/// A project agent the main agent can run as `subagent_type`.
fn agent_file(sandbox: &Sandbox, name: &str, description: &str) {
    let path = sandbox.project.join(".claude/agents").join(format!("{name}.md"));
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    let body =
        format!("---\nname: {name}\ndescription: {description}\ntools: Write, Read, Bash\n---\nYou are the {name}.\n");
    fs::write(path, body).unwrap();
}

fn agent_call(description: &str, prompt: &str, kind: &str) -> Reply {
    Reply {
        input_tokens: 20_000,
        blocks: vec![Block::ToolUse {
            name: "Agent".into(),
            input: json!({"description": description, "prompt": prompt, "subagent_type": kind}),
        }],
    }
}

#[test]
fn the_next_subagent_is_told_the_tables_and_columns_the_previous_one_wrote() {
    let sandbox = Sandbox::new("bridge");
    let hook = baton_command("hook");
    let entry =
        |matcher: &str| json!([{"matcher": matcher, "hooks": [{"type": "command", "command": hook, "timeout": 30}]}]);
    sandbox.project_settings(
        &json!({"hooks": {"SubagentStart": entry(""), "SubagentStop": entry(""), "PostToolUse": entry("")}}),
    );
    agent_file(&sandbox, "db-coding-agent", "Writes SQL migrations");
    agent_file(&sandbox, "backend-coding-agent", "Writes the API over the database");
    crate::common::git_repo(&sandbox.project, &[("README.md", "# accounts\n")]);
    let migration_path = sandbox.project.join("db/migrations/001_create_accounts.sql");
    let write_input = json!({"file_path": migration_path, "content": MIGRATION});

    let mock = Mock::start(move |request: &Request| {
        let turn = request.assistant_turns();
        let prompt = request.prompt();
        if prompt.contains(DB_TASK) {
            return match turn {
                0 => Reply {
                    input_tokens: 20_000,
                    blocks: vec![Block::ToolUse {
                        name: "Write".into(),
                        input: write_input.clone(),
                    }],
                },
                _ => Reply::text(
                    20_000,
                    "Created db/migrations/001_create_accounts.sql with the accounts table.",
                ),
            };
        }
        if prompt.contains(API_TASK) {
            return Reply::text(20_000, "Endpoints planned.");
        }
        match turn {
            0 => agent_call("accounts table", DB_TASK, "db-coding-agent"),
            1 => agent_call("accounts API", API_TASK, "backend-coding-agent"),
            _ => Reply::text(20_000, "done"),
        }
    });

    let mut command = claude_command(&sandbox, &mock);
    command.args([
        "-p",
        MAIN_PROMPT,
        "--allowedTools",
        "Agent,Write,Read,Bash",
        "--model",
        MODEL,
    ]);
    let output = output_within(command, Duration::from_secs(180));
    let requests: Vec<String> = mock
        .requests()
        .iter()
        .map(|r| format!("{} turns={}", r.prompt(), r.assistant_turns()))
        .collect();
    assert!(
        output.status.success(),
        "claude -p failed: {}\n{}\nrequests: {requests:#?}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(
        fs::read_to_string(&migration_path).ok().as_deref(),
        Some(MIGRATION),
        "the db subagent's Write did not run; requests: {requests:#?}"
    );

    // The ledger holds the db run's handoff.
    let runs = ledger(&sandbox);
    let db_run = runs
        .iter()
        .find(|r| r["type"] == "db-coding-agent")
        .unwrap_or_else(|| panic!("no db-coding-agent run: {runs:#?}"));
    let handoff = &db_run["handoff"];
    assert_eq!(handoff["structured"]["tables"][0]["name"], "accounts", "{db_run:#}");

    // The backend subagent's first request carries the table, its columns and the index.
    let api_turns = mock.turns_of(API_TASK);
    let first = api_turns
        .first()
        .unwrap_or_else(|| panic!("the backend subagent never ran: {requests:#?}"));
    let told: Vec<String> = first
        .all_texts()
        .into_iter()
        .filter(|t| t.contains("baton bridge"))
        .collect();
    let told = told.join("\n");
    for expected in [
        // Observed on 2.1.197: a system reminder in the subagent's first user message.
        "<system-reminder>\nSubagentStart hook additional context: baton bridge:",
        "Handoff from db-coding-agent (db):",
        "accounts [db/migrations/001_create_accounts.sql]: id bigserial PK, email TEXT NOT NULL UNIQUE, plan_tier VARCHAR(20) NOT NULL, created_at TIMESTAMPTZ NOT NULL",
        "accounts_plan_tier_idx ON accounts (plan_tier)",
    ] {
        assert!(
            told.contains(expected),
            "missing {expected:?} in the backend agent's first request:\n{told}\nall texts: {:#?}",
            first.all_texts()
        );
    }
    // The db subagent, which started first, was told nothing.
    let db_first = mock.turns_of(DB_TASK);
    assert!(
        db_first[0].all_texts().iter().all(|t| !t.contains("baton bridge")),
        "the first subagent has no predecessor"
    );
}

/// The ledger records under `.baton/agents/`.
fn ledger(sandbox: &Sandbox) -> Vec<Value> {
    let Ok(entries) = fs::read_dir(sandbox.project.join(".baton/agents")) else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "json"))
        .map(|e| serde_json::from_slice(&fs::read(e.path()).unwrap()).unwrap())
        .collect()
}
