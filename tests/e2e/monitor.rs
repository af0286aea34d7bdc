//! Headless runs (`claude -p`, so no statusline): baton's PostToolUse hook must work out the
//! context level from the transcript alone, and its warning must reach the model's next turn.

use std::fs;

use serde_json::{Value, json};

use super::client::{baton_command, run_headless};
use super::mock::{Mock, Reply};
use super::request::Request;
use super::sandbox::Sandbox;

const PROMPT: &str = "run echo";
const STEPS: [&str; 3] = ["echo step1", "echo step2", "echo step3"];
/// How the client labels PostToolUse context in the user turn after a tool_result.
const HOOK_LABEL: &str = "PostToolUse:Bash";
const HOOK_CONTEXT: &str = "PostToolUse:Bash hook additional context:";
/// Why a warning can go missing although the hook ran: said in failure messages.
const LAZY_TRANSCRIPT: &str = "note: Claude Code writes the transcript from a queue it drains \
    every 100 ms, so a PostToolUse hook can run before the reply holding its tool_use_id is on \
    disk (seen up to ~330 ms later on a loaded machine, probe/FINDINGS.md §11); the hook waits \
    for that line, and judges a call whose line does not come in time at the next call";

/// A finished headless session: its files, the mock, and the main agent's turns in order.
struct Session {
    sandbox: Sandbox,
    _mock: Mock,
    turns: Vec<Request>,
}

/// Runs three Bash calls, every reply reporting `input_tokens` (of a 200k window), with
/// `hook` wired to SessionStart and PostToolUse in the project settings.
fn run_session(sandbox: Sandbox, input_tokens: u64, hook: &str) -> Session {
    run_growing_session(sandbox, STEPS.len(), hook, move |_| input_tokens)
}

/// Runs `calls` Bash calls, the reply that makes call `k` (1-based) reporting `tokens(k)`
/// input tokens (of a 200k window), with `hook` wired to SessionStart and PostToolUse.
fn run_growing_session(
    sandbox: Sandbox,
    calls: usize,
    hook: &str,
    tokens: impl Fn(usize) -> u64 + Send + Sync + 'static,
) -> Session {
    let entry = |event: &str, matcher: &str| {
        let command = logging_exit(&sandbox, hook, event);
        json!([{"matcher": matcher, "hooks": [{"type": "command", "command": command, "timeout": 10}]}])
    };
    let hooks = json!({"SessionStart": entry("SessionStart", ""), "PostToolUse": entry("PostToolUse", "Bash")});
    sandbox.project_settings(&json!({ "hooks": hooks }));
    let mock = Mock::start(move |request| {
        let call = request.assistant_turns() + 1;
        if call <= calls {
            Reply::bash(tokens(call), &format!("echo step{call}"))
        } else {
            Reply::text(tokens(calls), "done")
        }
    });
    run_headless(&sandbox, &mock, PROMPT);
    let turns = mock.turns_of(PROMPT);
    let shape: Vec<usize> = turns.iter().map(Request::assistant_turns).collect();
    let requests = summary(&mock);
    assert_eq!(
        shape,
        (0..=calls).collect::<Vec<_>>(),
        "expected {} main-agent turns; requests: {requests:#?}",
        calls + 1
    );
    Session {
        sandbox,
        _mock: mock,
        turns,
    }
}

/// `hook` as a shell command that also appends "EVENT EXIT_CODE" to the sandbox's
/// `hook-exits`, passing stdin, stdout and the exit code through untouched. (The client logs
/// a successful hook in the transcript only when it printed something.)
fn logging_exit(sandbox: &Sandbox, hook: &str, event: &str) -> String {
    let log = sandbox.root.join("hook-exits");
    format!(
        "{hook}; code=$?; echo \"{event} $code\" >> '{}'; exit $code",
        log.display()
    )
}

/// The hook context the model was given right after tool call `call` (1-based).
fn context_after_call(session: &Session, call: usize) -> Vec<String> {
    session.turns[call].last_user_hook_context(HOOK_LABEL)
}

/// The hook ran once for SessionStart and once per Bash call, always exiting 0, and the
/// client logged no hook error.
fn assert_hooks_clean(session: &Session) {
    let attachments = session.sandbox.hook_attachments();
    let failed: Vec<&Value> = attachments
        .iter()
        .filter(|attachment| {
            let kind = attachment["type"].as_str().unwrap_or_default();
            let exit = attachment["exitCode"].as_i64().unwrap_or(0);
            ["error", "cancel", "block"].iter().any(|bad| kind.contains(bad)) || exit != 0
        })
        .collect();
    assert!(failed.is_empty(), "the client logged hook failures: {failed:#?}");
    let exits = fs::read_to_string(session.sandbox.root.join("hook-exits")).unwrap_or_default();
    let mut exits: Vec<&str> = exits.lines().collect();
    exits.sort();
    let calls = session.turns.len() - 1;
    let mut expected = vec!["PostToolUse 0"; calls];
    expected.push("SessionStart 0");
    assert_eq!(
        exits, expected,
        "hook runs and exit codes; client's hook log: {attachments:#?}"
    );
}

/// Method, path, conversation and turn number of each request the mock saw.
fn summary(mock: &Mock) -> Vec<String> {
    let describe = |request: &Request| {
        let (prompt, turns) = (request.prompt(), request.assistant_turns());
        format!("{} {} prompt={prompt:?} turns={turns}", request.method, request.path)
    };
    mock.requests().iter().map(describe).collect()
}

/// Asserts the model got `expected` right after the first Bash call and no further
/// `CONTEXT ` message after calls 2 and 3 (debounce: the next one is due at call 6).
fn assert_warned_once(session: &Session, expected: &str) {
    let first = context_after_call(session, 1);
    assert!(
        first.iter().any(|text| text.contains(expected)),
        "after the first Bash call the model got {first:?} instead of {expected:?}\n\
         last user turn: {:#?}\n{LAZY_TRANSCRIPT}\nhook log: {:#?}",
        session.turns[1].last_user_texts(),
        session.sandbox.hook_attachments(),
    );
    for call in [2, 3] {
        let later = context_after_call(session, call);
        let repeated = later.iter().any(|text| text.contains("CONTEXT "));
        assert!(!repeated, "debounce: call {call} gave the model {later:?} again");
    }
}

/// Proves the harness itself with a stand-in hook: settings wiring, the tool loop, the
/// request log and the exit log all work, so a failure of the baton tests below is baton's.
#[test]
fn stand_in_hook_context_reaches_the_model() {
    let sandbox = Sandbox::new("stand-in");
    let script = sandbox.root.join("stand-in-hook");
    let output = r#"{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"E2E-STAND-IN"}}"#;
    let body = format!("#!/bin/sh\ncase \"$(cat)\" in *'\"PostToolUse\"'*) echo '{output}';; esac\n");
    fs::write(&script, body).expect("write the stand-in hook");
    crate::common::os::make_executable(&script);
    let command = format!("'{}'", script.display());

    let session = run_session(sandbox, 140_000, &command);

    assert!(
        context_after_call(&session, 0).is_empty(),
        "no tool ran before the first turn"
    );
    for call in 1..=3 {
        let context = context_after_call(&session, call);
        let wanted = format!("{HOOK_CONTEXT} E2E-STAND-IN");
        assert!(
            context.iter().any(|text| text.contains(&wanted)),
            "after call {call} the model got {context:?}; last user turn: {:?}",
            session.turns[call].last_user_texts(),
        );
    }
    assert_hooks_clean(&session);
}

#[test]
fn warning_at_30_percent_remaining_reaches_the_model_once() {
    let session = run_session(Sandbox::new("warning"), 140_000, &baton_command("hook"));
    assert_warned_once(&session, "CONTEXT WARNING: Usage at 70%. Remaining: 30%.");
    assert_hooks_clean(&session);
}

#[test]
fn critical_at_20_percent_remaining_reaches_the_model_once() {
    let session = run_session(Sandbox::new("critical"), 160_000, &baton_command("hook"));
    assert_warned_once(&session, "CONTEXT CRITICAL: Usage at 80%. Remaining: 20%.");
    assert_hooks_clean(&session);
}

#[test]
fn no_warning_with_half_the_context_left() {
    let session = run_session(Sandbox::new("calm"), 100_000, &baton_command("hook"));
    for (turn, request) in session.turns.iter().enumerate() {
        let texts = request.all_texts().into_iter();
        let warned: Vec<String> = texts
            .filter(|text| text.contains("CONTEXT WARNING") || text.contains("CONTEXT CRITICAL"))
            .collect();
        assert!(
            warned.is_empty(),
            "turn {turn} told the model {warned:?} at 50% remaining"
        );
        let context = context_after_call(&session, turn);
        let monitor = context.iter().any(|text| text.contains("CONTEXT "));
        assert!(!monitor, "turn {turn} got {context:?} at 50% remaining");
    }
    assert_hooks_clean(&session);
}

/// The calls after which the model was told a `CONTEXT ` message, with its head (`CONTEXT
/// WARNING: Usage at 70%`).
fn warnings(session: &Session) -> Vec<(usize, String)> {
    let calls = session.turns.len() - 1;
    let head = |text: &str| {
        text.find("CONTEXT ")
            .map(|at| text[at..].split('.').next().unwrap_or_default().to_owned())
    };
    (1..=calls)
        .filter_map(|call| {
            let context = context_after_call(session, call);
            context.iter().find_map(|text| head(text)).map(|head| (call, head))
        })
        .collect()
}

#[test]
fn headless_debounce_warns_at_calls_1_6_and_11() {
    let session = run_growing_session(Sandbox::new("debounce"), 12, &baton_command("hook"), |_| 140_000);
    let warning = "CONTEXT WARNING: Usage at 70%";
    let expected: Vec<(usize, String)> = [1, 6, 11].iter().map(|&call| (call, warning.to_owned())).collect();
    assert_eq!(warnings(&session), expected, "{LAZY_TRANSCRIPT}");
    assert_hooks_clean(&session);
}

#[test]
fn headless_escalation_to_critical_fires_at_once_then_is_debounced() {
    // Calls 1-3 at 70% used, from call 4 on at 80%: WARNING at 1, CRITICAL at 4 (escalation),
    // CRITICAL again 5 calls later.
    let tokens = |call: usize| if call <= 3 { 140_000 } else { 160_000 };
    let session = run_growing_session(Sandbox::new("escalation"), 10, &baton_command("hook"), tokens);
    let expected = vec![
        (1, "CONTEXT WARNING: Usage at 70%".to_owned()),
        (4, "CONTEXT CRITICAL: Usage at 80%".to_owned()),
        (9, "CONTEXT CRITICAL: Usage at 80%".to_owned()),
    ];
    assert_eq!(warnings(&session), expected, "{LAZY_TRANSCRIPT}");
    assert_hooks_clean(&session);
}
