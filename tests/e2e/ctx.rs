//! The context store with the real client: the main agent hands work to a `pm` subagent (a
//! project agent in `.claude/agents/pm.md`); the store holds `agents.pm.inputs`, one of them a
//! reference to the analyst's brief. baton's SubagentStart hook must put the resolved inputs
//! into the subagent's first request (and only there); the subagent records its output with
//! `baton ctx output` from its Bash tool; SubagentStart/SubagentStop move its status.

use std::process::Command;
use std::time::Duration;

use serde_json::{Value, json};

use super::client::{MODEL, baton_command, claude_command, output_within};
use super::mock::{Block, Mock, Reply};
use super::request::Request;
use super::sandbox::Sandbox;

const MAIN_PROMPT: &str = "hand the PRD to the pm agent";
const SUB_PROMPT: &str = "E2E-PM-TASK: write the PRD from your inputs";
const PM_AGENT: &str = "---\nname: pm\ndescription: Product manager. Writes the PRD from the analyst's brief.\n\
                        tools: Bash\n---\nYou are the product manager. Write the PRD from the inputs you are given.\n";

/// Runs the built baton in the project, with the client's temp dir (the store's lock lives there).
fn baton(sandbox: &Sandbox, args: &[&str]) -> String {
    let mut command = Command::new(env!("CARGO_BIN_EXE_baton"));
    command
        .args(args)
        .current_dir(&sandbox.project)
        .env("TMPDIR", &sandbox.tmp);
    let output = output_within(command, Duration::from_secs(20));
    assert!(
        output.status.success(),
        "baton {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn a_subagent_receives_its_resolved_inputs_from_the_store_in_its_first_request() {
    let sandbox = Sandbox::new("ctx");
    let example = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/bmad/context-store-example.json"
    );
    baton(&sandbox, &["ctx", "init", "--from", example]);
    baton(
        &sandbox,
        &["ctx", "agent", "pm", "--status", "pending", "--as", "orchestrator"],
    );
    std::fs::create_dir_all(sandbox.project.join(".claude/agents")).unwrap();
    std::fs::write(sandbox.project.join(".claude/agents/pm.md"), PM_AGENT).unwrap();
    let hook =
        json!([{"matcher": "", "hooks": [{"type": "command", "command": baton_command("hook"), "timeout": 30}]}]);
    sandbox.project_settings(&json!({"hooks": {"SubagentStart": hook, "SubagentStop": hook}}));

    let record = format!(
        "{} ctx output pm prd --file docs/prd.md --data '{{\"epics\": 3}}' --quality 9 --as pm",
        baton_command("")
    );
    let mock = Mock::start(move |request: &Request| {
        let turn = request.assistant_turns();
        if request.prompt().contains(SUB_PROMPT) {
            return match turn {
                0 => Reply::bash(20_000, &record),
                _ => Reply::text(20_000, "The PRD is recorded in the context store."),
            };
        }
        match turn {
            0 => Reply {
                input_tokens: 20_000,
                blocks: vec![Block::ToolUse {
                    name: "Agent".into(),
                    input: json!({"description": "write the PRD", "prompt": SUB_PROMPT, "subagent_type": "pm"}),
                }],
            },
            _ => Reply::text(20_000, "done"),
        }
    });
    let mut command = claude_command(&sandbox, &mock);
    command.args(["-p", MAIN_PROMPT, "--allowedTools", "Bash,Agent", "--model", MODEL]);
    let output = output_within(command, Duration::from_secs(150));
    let requests: Vec<String> = mock
        .requests()
        .iter()
        .map(|r| format!("{} prompt={:?}", r.path, r.prompt()))
        .collect();
    assert!(
        output.status.success(),
        "claude -p failed: {}\n{}\nrequests: {requests:#?}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );

    // The subagent's first request carries the hook's context: its inputs, the reference to
    // the analyst's brief resolved to the brief itself.
    let sub = mock.turns_of(SUB_PROMPT);
    assert!(!sub.is_empty(), "the pm subagent never ran; requests: {requests:#?}");
    let first = sub[0].all_texts().join("\n");
    assert!(
        first.contains("baton context store (.baton/context.json, version 3): your inputs as agent \"pm\""),
        "the first request of the subagent lacks its inputs: {first}"
    );
    for resolved in [
        "\"target_users\": [",
        "\"team_leads\"",
        "\"quality_score\": 8.5",
        "\"feature_priorities\"",
    ] {
        assert!(first.contains(resolved), "{resolved} missing from {first}");
    }
    assert!(
        !first.contains("@agents.analyst.outputs.project_brief"),
        "unresolved reference: {first}"
    );
    let main = mock.turns_of(MAIN_PROMPT);
    assert!(
        main.iter()
            .all(|r| !r.all_texts().join("\n").contains("baton context store")),
        "the main agent must not get the subagent's inputs"
    );

    // The store: the output the subagent recorded, its status moved by the hooks, each write
    // by "pm" in the journal.
    let doc: Value = serde_json::from_str(&baton(&sandbox, &["ctx", "show", "--json"])).unwrap();
    assert_eq!(doc["agents"]["pm"]["status"], "completed", "{doc:#}");
    let prd = &doc["agents"]["pm"]["outputs"]["prd"];
    assert_eq!(
        (prd["file_path"].as_str(), &prd["structured_data"]),
        (Some("docs/prd.md"), &json!({"epics": 3}))
    );
    // The bridge's handoff of the run, recorded as the agent's output: it wrote no file, so
    // the summary is its own final message.
    let handoff = &doc["agents"]["pm"]["outputs"]["handoff"];
    assert_eq!(
        handoff["structured_data"]["summary"], "(unstructured) The PRD is recorded in the context store.",
        "{handoff:#}"
    );
    let log: Value = serde_json::from_str(&baton(&sandbox, &["ctx", "log", "--json"])).unwrap();
    let entries: Vec<(&str, &str)> = log["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["by"].as_str().unwrap(), e["cmd"].as_str().unwrap()))
        .collect();
    assert_eq!(
        entries,
        [
            ("unknown", "init"),
            ("orchestrator", "agent pm --status pending"),
            ("pm", "hook SubagentStart"),
            ("pm", "output pm prd"),
            ("pm", "hook SubagentStop (bridge handoff)"),
            ("pm", "hook SubagentStop"),
        ]
    );
    assert!(baton(&sandbox, &["ctx", "validate"]).contains("OK"));
}

/// `/baton:ctx-set` and `/baton:ctx-get`, installed by `baton install` and run through the
/// client: the value lands as a version written by "user", and the resolved value reaches
/// the model inlined in the command's prompt.
#[test]
fn the_ctx_slash_commands_write_and_read_the_store_through_the_client() {
    let sandbox = Sandbox::new("ctx-slash");
    let example = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/bmad/context-store-example.json"
    );
    baton(&sandbox, &["ctx", "init", "--from", example]);
    let mut install = Command::new(env!("CARGO_BIN_EXE_baton"));
    install
        .args(["install", "--project"])
        .arg(&sandbox.project)
        .current_dir(&sandbox.project)
        .env("HOME", &sandbox.home)
        .env("TMPDIR", &sandbox.tmp);
    assert!(output_within(install, Duration::from_secs(20)).status.success());

    let mock = Mock::start(|_| Reply::text(20_000, "Done."));
    super::client::run_headless(
        &sandbox,
        &mock,
        "/baton:ctx-set global_context.review '{\"approved\": true}'",
    );
    let review: Value = serde_json::from_str(&baton(&sandbox, &["ctx", "get", "global_context.review"])).unwrap();
    assert_eq!(review, json!({"approved": true}));
    let log: Value = serde_json::from_str(&baton(&sandbox, &["ctx", "log", "-n", "1", "--json"])).unwrap();
    assert_eq!(log["entries"][0]["by"], "user");

    let mock = Mock::start(|_| Reply::text(20_000, "Here it is."));
    super::client::run_headless(
        &sandbox,
        &mock,
        "/baton:ctx-get agents.pm.inputs.project_brief --resolve",
    );
    let told: Vec<String> = mock.requests().iter().flat_map(|r| r.all_texts()).collect();
    assert!(
        told.iter()
            .any(|t| t.contains("\"file_path\": \"artifacts/project-brief.md\"") && t.contains("\"team_leads\"")),
        "the resolved value did not reach the model: {told:#?}"
    );
}
