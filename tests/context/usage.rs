//! Which figures of the statusline payload count: a `current_usage` with a token count that
//! cannot be read (text, negative) is set aside as a whole, and the payload's percentage, or
//! else the transcript's tail, gives the figure; it never reads as 0.

use serde_json::{Value, json};

use crate::common::*;

const SESSION: &str = "4106d464-75bb-44ee-b810-e0e678a180ac";

/// Claude Code 2.1.197's payload after a reply at 150k of 200k (`used_percentage` 75), with
/// `current_usage.input_tokens` replaced by `input`.
fn payload_with_input(sandbox: &Sandbox, input: Value) -> Value {
    let mut p = fixture("statusline-after-reply.json");
    p["cwd"] = json!(native(&sandbox.project));
    p["workspace"]["current_dir"] = json!(native(&sandbox.project));
    p["transcript_path"] = json!(native(sandbox.project.join("missing.jsonl")));
    p["context_window"]["current_usage"]["input_tokens"] = input;
    p
}

#[test]
fn an_unreadable_token_count_falls_back_to_the_payloads_percentage() {
    for input in [json!("150000"), json!(-150_000), json!(true), json!({"n": 150_000})] {
        let sandbox = Sandbox::new();
        let line = plain(
            &sandbox
                .statusline(&payload_with_input(&sandbox, input.clone()))
                .assert_one_line(),
        );
        assert!(line.ends_with("████████░░ 83%"), "input_tokens {input}: {line}");
        let bridge = sandbox.read_json(&sandbox.temp_file(SESSION, ".json"));
        assert_eq!(
            (bridge["used_pct"].as_u64(), bridge["remaining_percentage"].as_u64()),
            (Some(75), Some(25)),
            "input_tokens {input}: {bridge}"
        );
        assert_eq!(bridge["source"], "payload-percent", "{bridge}");

        // The monitor reads that bridge: 25% remaining is critical.
        let text = sandbox.hook(&post_tool_use(&sandbox, SESSION, None)).context_text();
        assert!(
            text.starts_with("CONTEXT CRITICAL: Usage at 75%. Remaining: 25%."),
            "input_tokens {input}: {text}"
        );
    }
}

#[test]
fn an_unreadable_token_count_without_percentages_falls_back_to_the_transcript() {
    let sandbox = Sandbox::new();
    let mut p = payload_with_input(&sandbox, json!("150000"));
    p["context_window"]["used_percentage"] = json!(null);
    p["context_window"]["remaining_percentage"] = json!(null);
    p["transcript_path"] = json!(native(sandbox.transcript("t", "claude-sonnet-4-5", 140_000)));
    let line = plain(&sandbox.statusline(&p).assert_one_line());
    assert!(line.ends_with(" 78%"), "140k of 180k usable: {line}");
    let bridge = sandbox.read_json(&sandbox.temp_file(SESSION, ".json"));
    assert_eq!(
        (bridge["used_tokens"].as_u64(), bridge["source"].as_str()),
        (Some(140_000), Some("transcript"))
    );
}

#[test]
fn null_cache_counts_are_absent_not_unreadable() {
    // The Messages API may send `null` for the cache counts; the input count still stands.
    let sandbox = Sandbox::new();
    let mut p = payload_with_input(&sandbox, json!(150_000));
    p["context_window"]["current_usage"]["cache_read_input_tokens"] = json!(null);
    p["context_window"]["used_percentage"] = json!(null);
    p["context_window"]["remaining_percentage"] = json!(null);
    let line = plain(&sandbox.statusline(&p).assert_one_line());
    assert!(line.ends_with(" 83%"), "{line}");
    let bridge = sandbox.read_json(&sandbox.temp_file(SESSION, ".json"));
    assert_eq!(
        (bridge["used_tokens"].as_u64(), bridge["source"].as_str()),
        (Some(150_000), Some("payload"))
    );
}
