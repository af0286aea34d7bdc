//! The context monitor inside a real subagent: the client marks every line of a subagent's
//! own transcript `isSidechain: true`, and the subagent's tool calls carry the parent's
//! session and transcript plus `agent_id`. A subagent at 30% remaining runs tools; its next
//! request must carry baton's warning, and the main agent (at 10%) must get none. A subagent
//! whose context grows gets its own forecast, from its own transcript.

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
    delegating(|turn| match turn {
        0 => Reply::bash(SUB_TOKENS, "echo sub-step-1"),
        1 => Reply::bash(SUB_TOKENS, "echo sub-step-2"),
        _ => Reply::text(SUB_TOKENS, "Ran both steps."),
    })
}

/// The main agent (at 10%) starts one general-purpose subagent in the foreground and ends;
/// `subagent` answers each of the subagent's turns.
fn delegating(subagent: impl Fn(usize) -> Reply + Send + Sync + 'static) -> Mock {
    Mock::start(move |request: &Request| {
        let turn = request.assistant_turns();
        if request.prompt().contains(SUB_PROMPT) {
            return subagent(turn);
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

/// Runs the main prompt with baton as the Bash PostToolUse hook; panics unless it succeeds.
fn run(sandbox: &Sandbox, mock: &Mock) {
    let hook =
        json!([{"matcher": "Bash", "hooks": [{"type": "command", "command": baton_command("hook"), "timeout": 10}]}]);
    sandbox.project_settings(&json!({"hooks": {"PostToolUse": hook}}));
    let mut command = claude_command(sandbox, mock);
    command.args(["-p", MAIN_PROMPT, "--allowedTools", "Bash,Agent", "--model", MODEL]);
    let output = output_within(command, Duration::from_secs(150));
    assert!(
        output.status.success(),
        "claude -p exited with {}\nstderr: {}\nrequests: {:#?}",
        output.status,
        String::from_utf8_lossy(&output.stderr),
        mock.describe()
    );
}

#[test]
fn a_subagent_at_30_percent_remaining_is_warned_in_its_next_request() {
    let sandbox = Sandbox::new("subagent-monitor");
    let mock = script();
    run(&sandbox, &mock);

    let sub_turns = mock.turns_of(SUB_PROMPT);
    let shape: Vec<usize> = sub_turns.iter().map(Request::assistant_turns).collect();
    assert_eq!(
        shape,
        [0, 1, 2],
        "the subagent's turns; requests: {:#?}",
        mock.describe()
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

#[test]
fn a_growing_subagent_gets_its_own_forecast() {
    // The subagent's context grows by 15k a request from 80k; the main agent's stays at 20k.
    // At its 140k request (70%) it is warned, with the rate and the requests left from its
    // own transcript: 155k and 170k still start below the 180k its model's footer counts to.
    const START: u64 = 80_000;
    const GROWTH: u64 = 15_000;
    let sandbox = Sandbox::new("subagent-forecast");
    let mock = delegating(|turn| {
        let tokens = START + GROWTH * turn as u64;
        if turn < 6 {
            Reply::bash(tokens, &format!("echo sub-step-{turn}"))
        } else {
            Reply::text(tokens, "Ran the steps.")
        }
    });
    run(&sandbox, &mock);

    let sub_turns = mock.turns_of(SUB_PROMPT);
    let warned_at = sub_turns.iter().position(|turn| {
        let told = turn.last_user_hook_context(HOOK_LABEL);
        told.iter().any(|text| text.contains("CONTEXT WARNING"))
    });
    let warned_at =
        warned_at.unwrap_or_else(|| panic!("the subagent was never warned; requests: {:#?}", mock.describe()));
    assert_eq!(warned_at, 5, "warned after the Bash call of its 140k reply (turn 4)");
    let warning = sub_turns[warned_at].last_user_hook_context(HOOK_LABEL).join("\n");
    assert!(
        warning.contains("Usage at 70%.")
            && warning.contains(
                "At the recent rate (about 15k tokens per request), about 3 more requests fit before compaction."
            )
            && warning.contains("orchestrator"),
        "{warning}"
    );
    for turn in mock.turns_of(MAIN_PROMPT) {
        let told = turn.all_texts().join("\n") + &turn.last_user_hook_context(HOOK_LABEL).join("\n");
        assert!(!told.contains("CONTEXT "), "the main agent (at 10%) was warned: {told}");
    }
}
