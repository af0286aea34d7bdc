//! The forecast in the monitor's warning: from the transcript (headless), beside GSD's and
//! baton's bridge files (also when they are a reply behind), and a subagent's own.

use serde_json::json;

use super::*;
use crate::common::*;

#[test]
fn the_monitors_warning_carries_the_forecast_from_the_transcript() {
    // Headless: no statusline, no bridge file; the monitor reads the tail.
    let sandbox = Sandbox::new();
    let mut t = Transcript::starting_at(30_000);
    t.grow_all(&[10_000; 10]);
    let path = t.write(&sandbox);
    let text = sandbox
        .hook(&post_tool_use(&sandbox, SESSION, Some(&path)))
        .context_text();
    assert!(text.starts_with("CONTEXT WARNING: Usage at 65%."), "{text}");
    let left = truth(t.used, 180_000, &[10_000]);
    assert!(
        text.contains(&format!(
            "At the recent rate (about 10k tokens per request), about {left} more requests fit before compaction."
        )),
        "{text}"
    );
    // Too little history: the warning stands without it.
    let sandbox = Sandbox::new();
    let mut t = Transcript::starting_at(120_000);
    t.grow(10_000, 1_000);
    let path = t.write(&sandbox);
    let text = sandbox
        .hook(&post_tool_use(&sandbox, SESSION, Some(&path)))
        .context_text();
    assert!(
        text.starts_with("CONTEXT WARNING") && !text.contains("recent rate"),
        "{text}"
    );
}

#[test]
fn with_gsds_bridge_the_model_comes_from_the_transcript() {
    // GSD's statusline wrote the bridge (30% left: 140k, no model named); the limit is the
    // transcript's model's: claude-sonnet-4-5 is not compacted at a threshold, so 180k.
    let sandbox = Sandbox::new();
    sandbox.bridge(SESSION, 30, 0);
    let mut t = Transcript::starting_at(60_000);
    t.grow_all(&[10_000; 8]);
    let path = t.write(&sandbox);
    let text = sandbox
        .hook(&post_tool_use(&sandbox, SESSION, Some(&path)))
        .context_text();
    let left = truth(140_000, 180_000, &[10_000]);
    assert_eq!(left, 4);
    assert!(text.contains("about 4 more requests fit before compaction"), "{text}");
}

#[test]
fn a_subagent_gets_its_own_forecast_from_its_own_transcript() {
    let sandbox = Sandbox::new();
    let mut payload = fixture_of("2.1.332", "posttooluse-subagent.json");
    let agent = payload["agent_id"].as_str().unwrap().to_owned();
    // The parent grows fast and is far from full; the subagent grows by 15k and is at 70%.
    let mut parent = Transcript::starting_at(10_000);
    parent.grow_all(&[40_000, 40_000, 40_000]);
    let parent_path = parent.write(&sandbox);
    let mut own = Transcript::starting_at(20_000);
    own.grow_all(&[15_000; 8]);
    let sidechain = own.text.replace(r#""isSidechain":false"#, r#""isSidechain":true"#);
    sandbox.subagent_transcript(SESSION, &agent, &sidechain);
    payload["session_id"] = json!(SESSION);
    payload["transcript_path"] = json!(native(&parent_path));
    payload["cwd"] = json!(native(&sandbox.project));
    let text = sandbox.hook(&payload).context_text();
    let left = truth(own.used, 180_000, &[15_000]);
    assert!(text.contains("Usage at 70%."), "{text}");
    assert!(
        text.contains(&format!(
            "about 15k tokens per request), about {left} more requests fit"
        )),
        "{text}"
    );
}

#[test]
fn the_monitor_forecasts_from_the_reply_that_made_the_tool_call_when_the_bridge_is_behind() {
    // Tools this quick outrun the statusline: its bridge file still holds the reply before
    // (140k, 30% left) when the hook runs for the tool call of the 160k reply.
    let sandbox = Sandbox::new();
    let mut t = Transcript::starting_at(20_000);
    t.grow_all(&[20_000; 6]);
    let path = t.write(&sandbox);
    render(&sandbox, &payload(&sandbox, &path, t.used, MODEL, 200_000));
    t.grow(20_000, 1_000);
    let path = t.write(&sandbox);
    let mut hook = post_tool_use(&sandbox, SESSION, Some(&path));
    hook["tool_use_id"] = json!("toolu_1");
    let text = sandbox.hook(&hook).context_text();
    assert!(
        text.starts_with("CONTEXT CRITICAL: Usage at 80%."),
        "the 160k reply's figure, not the bridge's 140k: {text}"
    );
    let left = truth(t.used, 180_000, &[20_000]);
    assert_eq!(left, 1);
    assert!(
        text.contains("about 20k tokens per request), about 1 more request fits before compaction"),
        "from the 160k reply, not the bridge's 140k: {text}"
    );

    // GSD's statusline wrote the bridge: a whole percentage (30% left: 140,000) below the
    // transcript's 140,600, which holds the reply that made the call: its exact figure counts.
    let sandbox = Sandbox::new();
    sandbox.bridge(SESSION, 30, 0);
    let mut t = Transcript::starting_at(60_600);
    t.grow_all(&[10_000; 8]);
    let path = t.write(&sandbox);
    let text = sandbox
        .hook(&post_tool_use(&sandbox, SESSION, Some(&path)))
        .context_text();
    let left = truth(t.used, 180_000, &[10_000]);
    assert!(
        text.contains(&format!("about {left} more requests fit before compaction")),
        "{text}"
    );
}
