//! The transcript's tail as the statusline and the monitor read it: a subagent's own
//! transcript (every line a sidechain), sidechain lines in the main transcript, and replies
//! that merely mention a compact boundary.

use serde_json::{Value, json};

use crate::common::*;

const MODEL: &str = "claude-sonnet-4-5";

/// The 2.1.332 capture of a tool call inside a subagent, pointed at the sandbox: the parent's
/// transcript holds `parent_tokens`; the subagent's own transcript is the captured one (every
/// line `isSidechain: true` or without the key, replies at 140,000 tokens).
fn subagent_call(sandbox: &Sandbox, parent_tokens: u64) -> Value {
    let mut payload = fixture_of("2.1.332", "posttooluse-subagent.json");
    let session = payload["session_id"].as_str().unwrap().to_owned();
    let agent = payload["agent_id"].as_str().unwrap().to_owned();
    let parent = sandbox.session_transcript(&session, &transcript_lines(MODEL, parent_tokens));
    let own = std::fs::read_to_string(fixture_path_of("2.1.332", "transcript-subagent.jsonl")).unwrap();
    sandbox.subagent_transcript(&session, &agent, &own);
    payload["transcript_path"] = json!(native(&parent));
    payload["cwd"] = json!(native(&sandbox.project));
    payload
}

#[test]
fn a_subagent_at_30_percent_remaining_is_warned_from_its_own_sidechain_transcript() {
    let sandbox = Sandbox::new();
    let payload = subagent_call(&sandbox, 20_000);
    let text = sandbox.hook(&payload).context_text();
    assert!(
        text.starts_with("CONTEXT WARNING: Usage at 70%. Remaining: 30%. (140k of 200k tokens in use.)"),
        "{text}"
    );
    assert!(text.contains("orchestrator"), "{text}");
}

#[test]
fn sidechain_lines_in_the_main_transcript_are_not_the_main_agents_context() {
    // Older clients wrote subagents' replies into the main transcript, marked isSidechain.
    let sandbox = Sandbox::new();
    let subagent = std::fs::read_to_string(fixture_path_of("2.1.332", "transcript-subagent.jsonl")).unwrap();
    let main = transcript_lines(MODEL, 20_000) + &subagent;
    let transcript = sandbox.session_transcript("main-session", &main);

    let mut call = post_tool_use(&sandbox, "main-session", Some(&transcript));
    call["tool_use_id"] = json!("toolu_1");
    assert_eq!(sandbox.hook(&call).context(), None, "the main agent is at 20k");

    let mut status = fixture("statusline-session-start.json");
    status["session_id"] = json!("main-session");
    status["cwd"] = json!(native(&sandbox.project));
    status["workspace"]["current_dir"] = json!(native(&sandbox.project));
    status["transcript_path"] = json!(native(&transcript));
    let line = plain(&sandbox.statusline(&status).assert_one_line());
    assert!(line.ends_with(" 11%"), "20k of 180k usable: {line}");
}

/// A transcript whose previous reply used 20k tokens and whose last reply, at 150k, greps
/// for `"compact_boundary"` (its tool input holds the quoted word).
fn transcript_with_a_grep_for_the_boundary(sandbox: &Sandbox, session: &str) -> std::path::PathBuf {
    let mut grep = assistant_line(MODEL, 150_000, false);
    grep["message"]["content"] = json!([{"type": "tool_use", "id": "toolu_grep", "name": "Grep",
        "input": {"pattern": "compact_boundary", "path": "src"}}]);
    let older = assistant_line(MODEL, 20_000, false);
    let text = format!("{older}\n{grep}\n");
    assert!(text.contains(r#""compact_boundary""#));
    sandbox.session_transcript(session, &text)
}

#[test]
fn a_reply_grepping_for_compact_boundary_shows_its_own_usage_in_the_statusline() {
    let sandbox = Sandbox::new();
    let mut status = fixture("statusline-session-start.json");
    status["session_id"] = json!("grep-session");
    status["cwd"] = json!(native(&sandbox.project));
    status["workspace"]["current_dir"] = json!(native(&sandbox.project));
    status["transcript_path"] = json!(transcript_with_a_grep_for_the_boundary(&sandbox, "grep-session"));
    let line = plain(&sandbox.statusline(&status).assert_one_line());
    assert!(line.ends_with("████████░░ 83%"), "150k of 180k usable: {line}");
    let bridge = sandbox.read_json(&sandbox.temp_file("grep-session", ".json"));
    assert_eq!(bridge["used_tokens"], 150_000, "{bridge}");
}

#[test]
fn a_reply_grepping_for_compact_boundary_warns_in_a_headless_session() {
    let sandbox = Sandbox::new();
    let transcript = transcript_with_a_grep_for_the_boundary(&sandbox, "grep-session");
    let mut call = post_tool_use(&sandbox, "grep-session", Some(&transcript));
    call["tool_name"] = json!("Grep");
    call["tool_use_id"] = json!("toolu_grep");
    let text = sandbox.hook(&call).context_text();
    assert!(
        text.starts_with("CONTEXT CRITICAL: Usage at 75%. Remaining: 25%."),
        "{text}"
    );
}
