//! A background agent (Claude Code 2.1.332's default; asked for with `run_in_background` on
//! both clients) whose report claims work that does not exist: its `Agent` call returned at
//! launch, so the orchestrator is told with the first tool call it makes after the run ended.

use serde_json::json;

use super::client::baton_command;
use super::mock::{Block, Mock, Reply};
use super::request::Request;
use super::sandbox::Sandbox;
use super::subagent::{
    LIE, MAIN_PROMPT, SUB_PROMPT, WRITE, assert_hooks_clean, ledger, reminders, run_main_agent, summary,
};

/// What the orchestrator runs once it is notified that the background agent finished.
const CHECK: &str = "git status --short";

/// The mock for a background agent: the main agent launches it (`run_in_background`), ends
/// its turn, and once the `<task-notification>` arrives runs [`CHECK`], then ends; the
/// subagent writes the greeting and reports [`LIE`] (twice: it stands by it).
fn background_script() -> Mock {
    Mock::start(move |request: &Request| {
        let turn = request.assistant_turns();
        if request.prompt().contains(SUB_PROMPT) {
            return match turn {
                0 => Reply::bash(20_000, WRITE),
                _ => Reply::text(20_000, LIE),
            };
        }
        let last = request.last_user_texts();
        let checked = request.messages().iter().any(|m| m.to_string().contains(CHECK));
        let notified = last.iter().any(|t| t.contains("<task-notification>"));
        match turn {
            0 => Reply {
                input_tokens: 20_000,
                blocks: vec![Block::ToolUse {
                    name: "Agent".into(),
                    input: json!({"description": "write greeting", "prompt": SUB_PROMPT,
                                  "subagent_type": "general-purpose", "run_in_background": true}),
                }],
            },
            _ if notified && !checked => Reply::bash(20_000, CHECK),
            _ => Reply::text(20_000, "done"),
        }
    })
}

#[test]
fn a_background_agents_fabricated_claim_reaches_the_orchestrator_at_its_next_tool_call() {
    let sandbox = Sandbox::new("subagent-background");
    let hook = baton_command("hook");
    let entry =
        |matcher: &str| json!([{"matcher": matcher, "hooks": [{"type": "command", "command": hook, "timeout": 30}]}]);
    sandbox.project_settings(
        &json!({"hooks": {"SubagentStart": entry(""), "SubagentStop": entry(""), "PostToolUse": entry("*")}}),
    );
    crate::common::git_repo(&sandbox.project, &[("README.md", "# demo\n")]);
    let mock = background_script();

    run_main_agent(&sandbox, &mock);

    let runs = ledger(&sandbox);
    assert_eq!(runs.len(), 1, "one run expected (no compaction fork): {runs:#?}");
    assert_eq!(runs[0]["verification"]["flagged"], true, "{:#}", runs[0]);
    assert_eq!(runs[0]["background"], true, "{:#}", runs[0]);
    // The orchestrator was not told at launch (its Agent call returned before the run ended)…
    let main_turns = mock.turns_of(MAIN_PROMPT);
    let launched = &main_turns[1];
    assert!(
        reminders(launched).is_empty(),
        "told at launch: {:#}",
        launched.messages().last().unwrap()
    );
    // …but with the result of the first tool call it made after the run had ended.
    // The request right after the orchestrator's CHECK call: its last assistant message made it.
    let after_check = main_turns
        .iter()
        .find(|t| {
            t.messages()
                .iter()
                .rev()
                .nth(1)
                .is_some_and(|m| m.to_string().contains(CHECK))
        })
        .unwrap_or_else(|| panic!("the orchestrator never ran its check: {:#?}", summary(&mock)));
    let told = reminders(after_check).join("\n");
    assert!(
        told.contains("PostToolUse:Bash hook additional context: baton spot-check")
            && told.contains("src/users.sql does not exist")
            && told.contains("commit 4f2a9c1d does not exist"),
        "the orchestrator was not told; its last user turn: {:#}",
        after_check.messages().last().unwrap()
    );
    assert_hooks_clean(&sandbox);
}
