//! The context monitor inside a real subagent: the client marks every line of a subagent's
//! own transcript `isSidechain: true`, and the subagent's tool calls carry the parent's
//! session and transcript plus `agent_id`. A subagent at 30% remaining runs tools; its next
//! request must carry baton's warning, and the main agent (at 10%) must get none.

use std::time::Duration;

use serde_json::json;

use super::client::{MODEL, baton_command, claude_command, output_within};
use super::mock::{Block, Mock, Reply};
use super::request::Request;
use super::sandbox::Sandbox;

const MAIN_PROMPT: &str = "delegate the two echo steps to a subagent";
/// The subagent's task; its requests are told apart by this first user message.
const SUB_PROMPT: &str = "E2E-SUBAGENT-MONITOR: run the two echo steps";
/// Tokens the subagent's replies report: 30% of a 200k window remaining.
const SUB_TOKENS: u64 = 140_000;
const MAIN_TOKENS: u64 = 20_000;
const HOOK_LABEL: &str = "PostToolUse:Bash";
const WARNING: &str = "CONTEXT WARNING: Usage at 70%. Remaining: 30%.";

/// The main agent starts one general-purpose subagent in the foreground (2.1.332 runs agents
/// in the background unless told), then ends; the subagent runs two Bash steps, then reports.
fn script() -> Mock {
    Mock::start(|request: &Request| {
        let turn = request.assistant_turns();
        if request.prompt().contains(SUB_PROMPT) {
            return match turn {
                0 => Reply::bash(SUB_TOKENS, "echo sub-step-1"),
                1 => Reply::bash(SUB_TOKENS, "echo sub-step-2"),
                _ => Reply::text(SUB_TOKENS, "Ran both steps."),
            };
        }
        match turn {
            0 => Reply {
                input_tokens: MAIN_TOKENS,
                blocks: vec![Block::ToolUse {
                    name: "Agent".into(),
                    input: json!({"description": "run echo steps", "prompt": SUB_PROMPT,
                                  "subagent_type": "general-purpose", "run_in_background": false}),
                }],
            },
            _ => Reply::text(MAIN_TOKENS, "done"),
        }
    })
}

fn describe(mock: &Mock) -> Vec<String> {
    let line = |r: &Request| format!("{} prompt={:?} turns={}", r.path, r.prompt(), r.assistant_turns());
    mock.requests().iter().map(line).collect()
}

#[test]
fn a_subagent_at_30_percent_remaining_is_warned_in_its_next_request() {
    let sandbox = Sandbox::new("subagent-monitor");
    let hook =
        json!([{"matcher": "Bash", "hooks": [{"type": "command", "command": baton_command("hook"), "timeout": 10}]}]);
    sandbox.project_settings(&json!({"hooks": {"PostToolUse": hook}}));
    let mock = script();

    let mut command = claude_command(&sandbox, &mock);
    command.args(["-p", MAIN_PROMPT, "--allowedTools", "Bash,Agent", "--model", MODEL]);
    let output = output_within(command, Duration::from_secs(150));
    assert!(
        output.status.success(),
        "claude -p exited with {}\nstderr: {}\nrequests: {:#?}",
        output.status,
        String::from_utf8_lossy(&output.stderr),
        describe(&mock)
    );

    let sub_turns = mock.turns_of(SUB_PROMPT);
    let shape: Vec<usize> = sub_turns.iter().map(Request::assistant_turns).collect();
    assert_eq!(
        shape,
        [0, 1, 2],
        "the subagent's turns; requests: {:#?}",
        describe(&mock)
    );
    let after_first = sub_turns[1].last_user_hook_context(HOOK_LABEL);
    assert!(
        after_first
            .iter()
            .any(|text| text.contains(WARNING) && text.contains("orchestrator")),
        "after its first Bash call the subagent got {after_first:?}; its last message: {:#}",
        sub_turns[1].messages().last().unwrap()
    );
    let after_second = sub_turns[2].last_user_hook_context(HOOK_LABEL);
    assert!(
        !after_second.iter().any(|text| text.contains("CONTEXT ")),
        "debounce: the second call gave {after_second:?} again"
    );
    for turn in mock.turns_of(MAIN_PROMPT) {
        let told = turn.all_texts().join("\n") + &turn.last_user_hook_context(HOOK_LABEL).join("\n");
        assert!(!told.contains("CONTEXT "), "the main agent (at 10%) was warned: {told}");
    }
}
