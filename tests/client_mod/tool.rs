//! The warning at a tool call, judged on the context of the request that made it as the client
//! counted it (no transcript is read), with the monitor's thresholds, debounce and forecast:
//! the main agent's and each subagent's apart.

use serde_json::{Value, json};

use super::{SESSION, ask, tool_call};
use crate::common::*;

/// The warning `baton mod` gives for `question`, if any.
fn warning(sandbox: &Sandbox, question: Value) -> Option<String> {
    ask(sandbox, question)["context"].as_str().map(str::to_owned)
}

#[test]
fn warnings_come_at_calls_1_6_and_11_from_the_clients_figures_alone() {
    let sandbox = Sandbox::new();
    ask(&sandbox, json!({"event": "start"}));
    let mut requests = vec![100_000, 110_000, 120_000, 130_000];
    let mut warned = Vec::new();
    for call in 1..=12 {
        requests.push(140_000);
        if let Some(text) = warning(&sandbox, tool_call(&requests)) {
            warned.push(call);
            assert!(
                text.starts_with("CONTEXT WARNING: Usage at 70%. Remaining: 30%. (140k of 200k tokens in use.)"),
                "{text}"
            );
        }
    }
    assert_eq!(warned, [1, 6, 11]);
}

#[test]
fn the_warning_carries_the_forecast_of_the_requests_handed_over() {
    let sandbox = Sandbox::new();
    let text = warning(&sandbox, tool_call(&[100_000, 110_000, 120_000, 130_000, 140_000])).unwrap();
    // claude-sonnet-4-5 waits for the API's refusal: the limit is 180k (the window less 20k).
    assert!(
        text.contains(
            "At the recent rate (about 10k tokens per request), about 4 more requests fit before compaction."
        ),
        "{text}"
    );
    let escalated = warning(&sandbox, tool_call(&[140_000, 160_000])).unwrap();
    assert!(
        escalated.starts_with("CONTEXT CRITICAL: Usage at 80%. Remaining: 20%."),
        "{escalated}"
    );
}

#[test]
fn a_subagent_is_judged_on_its_own_figures_and_counted_apart() {
    let sandbox = Sandbox::new();
    let sub = |requests: &[u64]| {
        let mut q = tool_call(requests);
        q["agent_id"] = json!("a8e2f0c4d6b1a3e5f");
        q
    };
    let text = warning(&sandbox, sub(&[120_000, 135_000, 150_000])).unwrap();
    assert!(
        text.starts_with("CONTEXT CRITICAL: Usage at 75%. Remaining: 25%."),
        "{text}"
    );
    assert!(text.contains("report back to the orchestrator"), "{text}");
    assert!(text.contains("about 15k tokens per request"), "{text}");
    assert!(
        warning(&sandbox, tool_call(&[140_000])).is_some(),
        "the main agent's first"
    );
    assert_eq!(
        warning(&sandbox, sub(&[150_000, 151_000])),
        None,
        "the subagent's second call"
    );
    let mut hostile = sub(&[150_000]);
    hostile["agent_id"] = json!("../../etc");
    assert_eq!(ask(&sandbox, hostile), json!({"quiet_below_tokens": u64::MAX}));
}

#[test]
fn it_says_below_which_figure_no_warning_can_come() {
    let sandbox = Sandbox::new();
    let calm = ask(&sandbox, tool_call(&[20_000]));
    assert_eq!(calm["context"], Value::Null);
    // 35% remaining of 200k: 65% used, from 64.5% (129,000 tokens) up.
    assert_eq!(calm["quiet_below_tokens"], 129_000);
    let million = ask(
        &sandbox,
        json!({"event": "tool", "requests": [20_000], "window": 1_000_000}),
    );
    assert_eq!(million["quiet_below_tokens"], 645_000);
    sandbox.write(".baton/config.json", r#"{"monitor": {"warning_remaining": 50}}"#);
    assert_eq!(ask(&sandbox, tool_call(&[20_000]))["quiet_below_tokens"], 99_000);
    sandbox.write(".planning/config.json", r#"{"hooks": {"context_warnings": false}}"#);
    assert_eq!(
        ask(&sandbox, tool_call(&[190_000])),
        json!({"quiet_below_tokens": u64::MAX}),
        "warnings off: none ever"
    );
}

#[test]
fn back_below_the_threshold_the_first_warning_is_armed_again() {
    let sandbox = Sandbox::new();
    assert!(warning(&sandbox, tool_call(&[140_000])).is_some());
    assert!(warning(&sandbox, tool_call(&[140_000, 141_000])).is_none());
    assert!(warning(&sandbox, tool_call(&[20_000])).is_none(), "compacted");
    assert!(
        warning(&sandbox, tool_call(&[20_000, 140_000])).is_some(),
        "at once again"
    );
}

#[test]
fn garbage_and_hostile_questions_get_an_empty_answer() {
    let sandbox = Sandbox::new();
    for junk in [
        &b""[..],
        b"not json",
        b"{}",
        b"{\"event\":\"launch\"}",
        b"{\"event\":\"tool\",\"session_id\":\"../x\",\"requests\":[140000]}",
        b"{\"event\":\"tool\",\"session_id\":\"s\",\"requests\":\"many\"}",
        b"{\"event\":\"tool\",\"session_id\":\"s\",\"requests\":[]}",
        b"[1,2,3]",
    ] {
        let out = sandbox.run(&["mod"], junk);
        out.assert_hook_contract();
        let answer: Value = serde_json::from_str(out.stdout.trim()).unwrap_or(Value::Null);
        assert!(answer.get("context").is_none_or(Value::is_null), "{junk:?}: {answer}");
    }
    let huge: Vec<u64> = (0..100_000).map(|n| 50_000 + n).collect();
    let out = sandbox.run(&["mod"], tool_call(&huge).to_string().as_bytes());
    out.assert_hook_contract();
    let open = sandbox.run_with(&["mod"], br#"{"event":"start","session_id":"s""#, false);
    open.assert_hook_contract();
}

#[test]
fn a_gsd_core_projects_thresholds_hold_and_gsds_own_monitor_is_left_quiet() {
    let sandbox = Sandbox::new();
    sandbox.write(
        ".planning/config.json",
        r#"{"hooks":{"context_warning_threshold":50,"context_critical_threshold":40}}"#,
    );
    ask(&sandbox, json!({"event": "start"}));
    // 90k of 200k: 55% remaining, above the project's 50 (reached from 99k, 50.5% shown as 50).
    assert_eq!(ask(&sandbox, tool_call(&[90_000]))["quiet_below_tokens"], 99_000);
    assert_eq!(warning(&sandbox, tool_call(&[90_000])), None);
    // The statusline's bridge says 45% remaining, just now: GSD's monitor, wired beside, would
    // consult its record at this call; baton leaves the one that keeps it quiet.
    sandbox.bridge(SESSION, 45, 1);
    let text = warning(&sandbox, tool_call(&[90_000, 110_000])).expect("a warning at 45% remaining");
    assert!(
        text.starts_with("CONTEXT WARNING: Usage at 55%. Remaining: 45%."),
        "{text}"
    );
    let record = sandbox.read_json(&sandbox.temp_file(SESSION, "-warned.json"));
    assert_eq!(record["lastLevel"], "critical", "{record}");
}
