//! Subagents with the real client: the main agent calls the `Agent` tool, the subagent runs
//! Bash and ends; baton's SubagentStart/SubagentStop hooks must fill the ledger with the run
//! and its changed file. A final message claiming a file or commit that does not exist is
//! put back to the subagent once (SubagentStop context reaches the subagent, observed on
//! 2.1.197 and 2.1.332), and, if it stands, reaches the orchestrator with the `Agent` result
//! (PostToolUse), or, for a background agent, at the orchestrator's next tool call.

use std::fs;
use std::time::Duration;

use serde_json::{Value, json};

use super::client::{MODEL, baton_command, claude_command, output_within};
use super::mock::{Block, Mock, Reply};
use super::request::Request;
use super::sandbox::Sandbox;

pub(super) const MAIN_PROMPT: &str = "delegate the greeting to a subagent";
/// The subagent's task; its requests are told apart by this first user message.
pub(super) const SUB_PROMPT: &str = "E2E-SUBAGENT-TASK: write the greeting file";
pub(super) const WRITE: &str = "mkdir -p notes && echo hello > notes/greeting.txt";

/// What the subagent says in the end: `first` as its report, `after_check` once baton's
/// spot-check was put to it.
#[derive(Clone, Copy)]
struct Reports {
    first: &'static str,
    after_check: &'static str,
}

/// The mock: the main agent spawns one general-purpose subagent in the foreground
/// (2.1.332 runs agents in the background unless told not to), then ends; the subagent runs
/// [`WRITE`], then reports.
fn script(reports: Reports) -> Mock {
    Mock::start(move |request: &Request| {
        let turn = request.assistant_turns();
        if request.prompt().contains(SUB_PROMPT) {
            let checked = request.last_user_texts().iter().any(|t| t.contains(SPOT_CHECK));
            return match turn {
                0 => Reply::bash(20_000, WRITE),
                _ if checked => Reply::text(20_000, reports.after_check),
                _ => Reply::text(20_000, reports.first),
            };
        }
        match turn {
            0 => Reply {
                input_tokens: 20_000,
                blocks: vec![Block::ToolUse {
                    name: "Agent".into(),
                    input: json!({"description": "write greeting", "prompt": SUB_PROMPT,
                                  "subagent_type": "general-purpose", "run_in_background": false}),
                }],
            },
            _ => Reply::text(20_000, "done"),
        }
    })
}

const SPOT_CHECK: &str = "baton spot-check";
const HONEST: &str = "Created notes/greeting.txt with the greeting.";
pub(super) const LIE: &str = "Created notes/greeting.txt and src/users.sql; committed as 4f2a9c1d.";

/// A git project wired with `hook` for SubagentStart, SubagentStop and PostToolUse of the
/// `Agent` tool; returns the start HEAD.
fn project(sandbox: &Sandbox, hook: &str) -> String {
    let entry =
        |matcher: &str| json!([{"matcher": matcher, "hooks": [{"type": "command", "command": hook, "timeout": 30}]}]);
    sandbox.project_settings(
        &json!({"hooks": {"SubagentStart": entry(""), "SubagentStop": entry(""), "PostToolUse": entry("Agent")}}),
    );
    // Nothing is git-ignored: the settings file (dirty before the run) and baton's own `.baton/`
    // must not count as the subagent's work.
    crate::common::git_repo(&sandbox.project, &[("README.md", "# demo\n")])
}

pub(super) fn run_main_agent(sandbox: &Sandbox, mock: &Mock) {
    let mut command = claude_command(sandbox, mock);
    command.args(["-p", MAIN_PROMPT, "--allowedTools", "Bash,Agent", "--model", MODEL]);
    let output = output_within(command, Duration::from_secs(150));
    assert!(
        output.status.success(),
        "claude -p exited with {}\nstdout: {}\nstderr: {}\nrequests: {:#?}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr),
        summary(mock),
    );
}

/// The ledger records under `.baton/agents/`.
pub(super) fn ledger(sandbox: &Sandbox) -> Vec<Value> {
    let dir = sandbox.project.join(".baton/agents");
    let Ok(entries) = fs::read_dir(&dir) else {
        return Vec::new();
    };
    let mut runs: Vec<Value> = entries
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "json"))
        .map(|e| serde_json::from_slice(&fs::read(e.path()).unwrap()).unwrap())
        .collect();
    runs.sort_by_key(|r| r["started_at"].as_str().unwrap_or_default().to_owned());
    runs
}

pub(super) fn summary(mock: &Mock) -> Vec<String> {
    let describe = |r: &Request| {
        let tools: Vec<&str> = r.body["tools"]
            .as_array()
            .map(|t| t.iter().filter_map(|t| t["name"].as_str()).collect())
            .unwrap_or_default();
        format!(
            "{} {} prompt={:?} turns={} tools={tools:?}",
            r.method,
            r.path,
            r.prompt(),
            r.assistant_turns()
        )
    };
    mock.requests().iter().map(describe).collect()
}

/// Every hook the client ran for the subagent events exited 0.
pub(super) fn assert_hooks_clean(sandbox: &Sandbox) {
    let attachments = sandbox.hook_attachments();
    let failed: Vec<&Value> = attachments
        .iter()
        .filter(|a| {
            let kind = a["type"].as_str().unwrap_or_default();
            kind.contains("error") || kind.contains("cancel") || a["exitCode"].as_i64().unwrap_or(0) != 0
        })
        .collect();
    assert!(failed.is_empty(), "hooks failed: {failed:#?}");
}

#[test]
fn the_ledger_records_a_real_subagent_run_with_its_changed_file() {
    let sandbox = Sandbox::new("subagent");
    let head = project(&sandbox, &baton_command("hook"));
    let mock = script(Reports {
        first: HONEST,
        after_check: HONEST,
    });

    run_main_agent(&sandbox, &mock);

    assert_eq!(
        fs::read_to_string(sandbox.project.join("notes/greeting.txt"))
            .ok()
            .as_deref(),
        Some("hello\n"),
        "the subagent's Bash call did not run; requests: {:#?}",
        summary(&mock)
    );
    let runs = ledger(&sandbox);
    assert_eq!(runs.len(), 1, "one run expected: {runs:#?}");
    let run = &runs[0];
    assert_eq!(run["type"], "general-purpose", "{run:#}");
    assert_eq!(run["status"], "finished", "{run:#}");
    assert_eq!(run["head_at_start"], head.as_str(), "{run:#}");
    assert_eq!(run["files_changed"], json!(["notes/greeting.txt"]), "{run:#}");
    assert_eq!(
        run["last_message"], "Created notes/greeting.txt with the greeting.",
        "{run:#}"
    );
    assert!(run["started_at"].is_string() && run["ended_at"].is_string(), "{run:#}");
    let transcript = run["transcript_path"].as_str().unwrap_or_default();
    assert!(transcript.contains("/subagents/agent-"), "{run:#}");
    assert_eq!(run["verification"]["flagged"], false, "{run:#}");
    assert_eq!(run["verification"]["checks"][0]["verdict"], "confirmed", "{run:#}");
    assert_hooks_clean(&sandbox);

    // The same run through the command an orchestrator calls.
    let id = run["id"].as_str().unwrap();
    let mut verify = std::process::Command::new(crate::common::baton_bin());
    verify.args(["agents", "verify", id]).current_dir(&sandbox.project);
    let output = output_within(verify, Duration::from_secs(20));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success() && stdout.contains("OK: 1 claim checked"),
        "{stdout}"
    );
}

/// The texts of the system reminders a request's last user turn (or its tool results) carry.
pub(super) fn reminders(request: &Request) -> Vec<String> {
    let last = request.messages().last().cloned().unwrap_or_default();
    let mut texts = Vec::new();
    collect_texts(&last["content"], &mut texts);
    texts.into_iter().filter(|t| t.contains(SPOT_CHECK)).collect()
}

fn collect_texts(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::String(text) => out.push(text.clone()),
        Value::Array(items) => items.iter().for_each(|item| collect_texts(item, out)),
        Value::Object(map) => map.values().for_each(|item| collect_texts(item, out)),
        _ => {}
    }
}

#[test]
fn a_fabricated_claim_goes_back_to_the_subagent_once_then_to_the_orchestrator() {
    let sandbox = Sandbox::new("subagent-lie");
    project(&sandbox, &baton_command("hook"));
    let mock = script(Reports {
        first: LIE,
        after_check: LIE,
    });

    run_main_agent(&sandbox, &mock);

    // The subagent was told once, and not again when it repeated the claim.
    let sub_turns = mock.turns_of(SUB_PROMPT);
    let told: Vec<usize> = sub_turns
        .iter()
        .filter(|t| !reminders(t).is_empty())
        .map(Request::assistant_turns)
        .collect();
    assert_eq!(told, [2], "subagent turns: {:#?}", summary(&mock));
    let reminder = reminders(&sub_turns[2]).join("\n");
    assert!(
        reminder.contains("SubagentStop hook additional context") && reminder.contains("src/users.sql does not exist"),
        "{reminder}"
    );
    assert_eq!(sub_turns.len(), 3, "the subagent must not loop: {:#?}", summary(&mock));

    let runs = ledger(&sandbox);
    assert_eq!(runs.len(), 1, "one run expected: {runs:#?}");
    let verification = &runs[0]["verification"];
    assert_eq!(verification["flagged"], true, "{:#}", runs[0]);
    let verdicts = crate::common::verdicts(verification);
    assert_eq!(
        verdicts,
        [
            ("notes/greeting.txt", "confirmed"),
            ("src/users.sql", "refuted"),
            ("4f2a9c1d", "refuted")
        ]
    );

    // The orchestrator's turn after the Agent call carries the spot-check.
    let main_turns = mock.turns_of(MAIN_PROMPT);
    let after = main_turns.last().expect("the main agent's last turn");
    let told = reminders(after).join("\n");
    assert!(
        told.contains("PostToolUse:Agent hook additional context: baton spot-check")
            && told.contains("src/users.sql does not exist")
            && told.contains("commit 4f2a9c1d does not exist"),
        "the orchestrator was not told; its last user turn: {:#}",
        after.messages().last().unwrap()
    );
    assert_hooks_clean(&sandbox);
}

#[test]
fn a_subagent_that_corrects_its_report_is_not_flagged() {
    let sandbox = Sandbox::new("subagent-fix");
    project(&sandbox, &baton_command("hook"));
    let corrected = "Created notes/greeting.txt. I did not create src/users.sql and made no commit.";
    let mock = script(Reports {
        first: LIE,
        after_check: corrected,
    });

    run_main_agent(&sandbox, &mock);

    let runs = ledger(&sandbox);
    assert_eq!(runs[0]["last_message"], corrected, "{:#}", runs[0]);
    assert_eq!(runs[0]["verification"]["flagged"], false, "{:#}", runs[0]);
    let main_turns = mock.turns_of(MAIN_PROMPT);
    let after = main_turns.last().expect("the main agent's last turn");
    assert!(
        reminders(after).is_empty(),
        "the orchestrator was told about a corrected run"
    );
    let result = after.messages().last().unwrap().to_string();
    assert!(result.contains("I did not create src/users.sql"), "{result}");
    assert_hooks_clean(&sandbox);
}

/// The SubagentStart/SubagentStop fixtures (captured this way) still carry every field the
/// real client sends: each captured payload has at least the fixture's keys.
#[test]
fn the_subagent_fixtures_match_what_the_client_sends() {
    let sandbox = Sandbox::new("subagent-capture");
    let script_path = sandbox.root.join("capture.sh");
    let body = format!(
        "#!/bin/sh\nf=$(mktemp {}/payload.XXXXXX)\ntimeout 3 cat > \"$f\"\nexec {} < \"$f\"\n",
        sandbox.root.display(),
        baton_command("hook")
    );
    fs::write(&script_path, body).unwrap();
    crate::common::os::make_executable(&script_path);
    project(&sandbox, &script_path.display().to_string());
    let mock = script(Reports {
        first: HONEST,
        after_check: HONEST,
    });
    run_main_agent(&sandbox, &mock);
    let mut captured: Vec<(std::time::SystemTime, String)> = fs::read_dir(&sandbox.root)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("payload."))
        .map(|e| {
            (
                e.metadata().unwrap().modified().unwrap(),
                fs::read_to_string(e.path()).unwrap(),
            )
        })
        .collect();
    captured.sort();
    let payloads: Vec<serde_json::Value> = captured
        .iter()
        .filter_map(|(_, p)| serde_json::from_str(p).ok())
        .collect();
    for event in ["SubagentStart", "SubagentStop"] {
        let fixture_path = super::client::fixtures_dir().join(format!("{}.json", event.to_ascii_lowercase()));
        let fixture: serde_json::Value = serde_json::from_str(&fs::read_to_string(&fixture_path).unwrap()).unwrap();
        let live = payloads
            .iter()
            .find(|p| p["hook_event_name"] == event)
            .unwrap_or_else(|| panic!("no {event} payload captured; captured: {captured:#?}"));
        for key in fixture.as_object().unwrap().keys() {
            assert!(
                live.get(key).is_some(),
                "{event}: the client no longer sends {key:?}: {live:#}"
            );
        }
    }
}
