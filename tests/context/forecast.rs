//! The compaction forecast through the built binary, on transcripts whose growth is known:
//! steady, bursty, one 60k tool result, after a compaction, shrinking, too short. Where a
//! forecast is shown (the statusline's `≈N left`, the bridge's `requests_left`, the monitor's
//! warning) it is within one request of the truth: the requests that still start below the
//! limit when the session goes on growing the same way. Where it should not be, it is absent.

use serde_json::{Value, json};

use crate::common::*;

const SESSION: &str = "f0ca5700-0000-4000-8000-00000000f0ca";
const MODEL: &str = "claude-sonnet-4-5";

/// A transcript written the way Claude Code 2.1.332 writes one, request by request.
struct Transcript {
    text: String,
    requests: usize,
    used: u64,
}

impl Transcript {
    fn starting_at(tokens: u64) -> Self {
        let mut t = Self {
            text: String::new(),
            requests: 0,
            used: tokens,
        };
        t.reply(tokens, 2_000);
        t
    }

    /// One more request whose context grew by `growth` tokens; its tool result is
    /// `result_bytes` long (four bytes a token, so a 60k-token result is ~240 KB).
    fn grow(&mut self, growth: u64, result_bytes: usize) -> &mut Self {
        self.used += growth;
        let used = self.used;
        self.reply(used, result_bytes);
        self
    }

    fn grow_all(&mut self, growths: &[u64]) -> &mut Self {
        for g in growths {
            self.grow(*g, (*g as usize).min(60_000) * 4);
        }
        self
    }

    /// The lines of one request: the API request records, the reply in two lines sharing its
    /// message id (thinking, then the tool call), the tool result, a hook attachment, and the
    /// ~110 KB prompt snapshot 2.1.332 writes with a turn.
    fn reply(&mut self, tokens: u64, result_bytes: usize) {
        self.requests += 1;
        let n = self.requests;
        let mut reply = Reply::new(MODEL, n);
        reply.input = 3;
        reply.cache_read = tokens * 9 / 10;
        reply.cache_write_5m = tokens - 3 - reply.cache_read;
        reply.output = 40;
        let api = json!({"type": "api-request", "sessionId": SESSION, "id": format!("req-{n}"),
                         "params": {"model": MODEL, "max_tokens": 32000}, "tail": ["assistant usage"]});
        let result = json!({"type": "user", "isSidechain": false, "message": {"role": "user", "content": [
            {"tool_use_id": "toolu_1", "type": "tool_result", "content": "r".repeat(result_bytes)}]}});
        let hook = json!({"type": "attachment", "isSidechain": false, "attachment": {"type": "hook_success",
                          "hookEvent": "PostToolUse", "stdout": "", "exitCode": 0}});
        let snapshot = json!({"type": "attachment", "isSidechain": false, "attachment": {
            "type": "prompt_snapshot", "systemPrompt": ["s".repeat(110_000)]}});
        for line in [
            api.to_string(),
            reply.line(),
            reply.line(),
            result.to_string(),
            hook.to_string(),
        ] {
            self.text.push_str(&line);
            self.text.push('\n');
        }
        if n.is_multiple_of(2) {
            self.text.push_str(&snapshot.to_string());
            self.text.push('\n');
        }
    }

    /// A compaction: the boundary with `post` tokens, then the summary line.
    fn compact(&mut self, post: u64) -> &mut Self {
        let boundary = json!({"type": "system", "subtype": "compact_boundary", "content": "Conversation compacted",
            "compactMetadata": {"trigger": "auto", "preTokens": self.used, "postTokens": post}});
        let summary = json!({"type": "user", "isCompactSummary": true, "isVisibleInTranscriptOnly": true,
            "message": {"role": "user", "content": "This session is being continued from a previous conversation"}});
        self.text.push_str(&format!("{boundary}\n{summary}\n"));
        self.used = post;
        self
    }

    fn write(&self, sandbox: &Sandbox) -> std::path::PathBuf {
        sandbox.session_transcript(SESSION, &self.text)
    }
}

/// The requests that still start below `limit` from `used` when the session goes on growing
/// by `future` (repeated).
fn truth(mut used: u64, limit: u64, future: &[u64]) -> u64 {
    let mut growths = future.iter().cycle();
    let mut requests = 0;
    while used < limit {
        requests += 1;
        used += growths.next().unwrap();
    }
    requests
}

/// The 2.1.332 statusline payload at `used` tokens of a 200k window (or `window`), pointed at
/// the transcript.
fn payload(sandbox: &Sandbox, transcript: &std::path::Path, used: u64, model: &str, window: u64) -> Value {
    let mut p = fixture_of("2.1.332", "statusline.json");
    p["session_id"] = json!(SESSION);
    p["cwd"] = json!(sandbox.project);
    p["workspace"]["current_dir"] = json!(sandbox.project);
    p["transcript_path"] = json!(transcript);
    p["model"] = json!({"id": model, "display_name": "Model"});
    let cw = &mut p["context_window"];
    cw["context_window_size"] = json!(window);
    cw["current_usage"] = json!({"input_tokens": used, "output_tokens": 40,
                                 "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0});
    cw["used_percentage"] = json!(used * 100 / window);
    cw["remaining_percentage"] = json!(100 - used * 100 / window);
    p
}

/// What the statusline showed and what the bridge file said.
struct Shown {
    line: String,
    requests_left: Option<u64>,
    tokens_per_request: Option<u64>,
}

fn render(sandbox: &Sandbox, payload: &Value) -> Shown {
    let line = plain(&sandbox.statusline(payload).assert_one_line());
    let bridge = sandbox.read_json(&sandbox.temp_file(SESSION, ".json"));
    let forecast = &bridge["forecast"];
    let shown = Shown {
        line,
        requests_left: forecast["requests_left"].as_u64(),
        tokens_per_request: forecast["tokens_per_request"].as_u64(),
    };
    assert_eq!(
        shown.requests_left.map(|n| format!("≈{n} left")),
        shown.line.split(" ≈").nth(1).map(|rest| format!("≈{rest}")),
        "the statusline shows the bridge's forecast: {}",
        shown.line
    );
    shown
}

#[track_caller]
fn assert_near(shown: Option<u64>, truth: u64, what: &str) {
    let shown = shown.unwrap_or_else(|| panic!("{what}: no forecast, the truth is {truth}"));
    assert!(shown.abs_diff(truth) <= 1, "{what}: forecast {shown}, truth {truth}");
}

#[test]
fn steady_growth_is_forecast_within_one_request() {
    let sandbox = Sandbox::new();
    let mut t = Transcript::starting_at(20_000);
    t.grow_all(&[10_000; 10]);
    let path = t.write(&sandbox);
    let shown = render(&sandbox, &payload(&sandbox, &path, t.used, MODEL, 200_000));
    // claude-sonnet-4-5 is not compacted at a threshold: the limit is where its footer reads
    // 100%, 180k.
    assert_near(shown.requests_left, truth(t.used, 180_000, &[10_000]), "steady");
    assert_eq!(shown.tokens_per_request, Some(10_000));
    assert!(shown.line.ends_with("██████░░░░ 67% ≈6 left"), "{}", shown.line);
}

#[test]
fn bursty_growth_is_forecast_within_one_request() {
    // Small reads between larger ones, the same 10k a request on average.
    for pattern in [&[6_000, 14_000][..], &[8_000, 8_000, 14_000]] {
        let sandbox = Sandbox::new();
        let mut t = Transcript::starting_at(20_000);
        while t.requests < 9 {
            t.grow_all(pattern);
        }
        let path = t.write(&sandbox);
        let shown = render(&sandbox, &payload(&sandbox, &path, t.used, MODEL, 200_000));
        assert_near(
            shown.requests_left,
            truth(t.used, 180_000, pattern),
            &format!("bursty {pattern:?}"),
        );
    }
}

#[test]
fn one_60k_tool_result_does_not_set_the_rate() {
    let sandbox = Sandbox::new();
    let mut t = Transcript::starting_at(20_000);
    t.grow_all(&[8_000; 4]).grow_all(&[60_000]).grow_all(&[8_000; 3]);
    let path = t.write(&sandbox);
    let shown = render(&sandbox, &payload(&sandbox, &path, t.used, MODEL, 200_000));
    assert_eq!(shown.tokens_per_request, Some(8_000));
    assert_near(
        shown.requests_left,
        truth(t.used, 180_000, &[8_000]),
        "after a 60k result",
    );
}

#[test]
fn the_limit_follows_the_compaction_regime_and_the_1m_window() {
    let mut t = Transcript::starting_at(20_000);
    t.grow_all(&[10_000; 10]);
    // An auto-compact window makes the client compact at 167k, and its footer counts to that.
    let sandbox = Sandbox::new().env("CLAUDE_CODE_AUTO_COMPACT_WINDOW", "200000");
    let path = t.write(&sandbox);
    let shown = render(&sandbox, &payload(&sandbox, &path, t.used, MODEL, 200_000));
    assert_near(shown.requests_left, truth(t.used, 167_000, &[10_000]), "enforced");
    assert!(shown.line.contains(" 72% ≈5 left"), "120k of 167k: {}", shown.line);
    // A 1M window: the footer counts to 980k.
    let sandbox = Sandbox::new();
    let path = t.write(&sandbox);
    let shown = render(
        &sandbox,
        &payload(&sandbox, &path, t.used, "claude-sonnet-4-5[1m]", 1_000_000),
    );
    assert_near(shown.requests_left, truth(t.used, 980_000, &[10_000]), "1M");
    assert!(shown.line.ends_with(" ≈86 left"), "{}", shown.line);
}

#[test]
fn after_a_compaction_the_history_restarts() {
    let sandbox = Sandbox::new();
    let mut t = Transcript::starting_at(20_000);
    t.grow_all(&[30_000; 4]).compact(6_000);
    t.reply(12_000, 2_000);
    t.used = 12_000;
    t.grow(5_000, 2_000);
    let path = t.write(&sandbox);
    // Two requests since the compaction: too little history.
    let shown = render(&sandbox, &payload(&sandbox, &path, t.used, MODEL, 200_000));
    assert_eq!(shown.requests_left, None, "{}", shown.line);
    assert!(shown.line.ends_with(" 9%"), "{}", shown.line);
    // Two more: the rate is the new one, not the 30k of before.
    t.grow_all(&[5_000, 5_000]);
    let path = t.write(&sandbox);
    let shown = render(&sandbox, &payload(&sandbox, &path, t.used, MODEL, 200_000));
    assert_eq!(shown.tokens_per_request, Some(5_000));
    assert_near(
        shown.requests_left,
        truth(t.used, 180_000, &[5_000]),
        "after compaction",
    );
}

#[test]
fn too_little_history_or_a_shrinking_context_gives_no_forecast() {
    let sandbox = Sandbox::new();
    let mut t = Transcript::starting_at(20_000);
    t.grow(10_000, 1_000);
    let path = t.write(&sandbox);
    let shown = render(&sandbox, &payload(&sandbox, &path, t.used, MODEL, 200_000));
    assert_eq!(shown.requests_left, None, "two requests: {}", shown.line);

    // The context shrank at the last request (tool results cleared): no rate applies.
    t.grow_all(&[10_000, 10_000, 10_000]);
    t.used -= 25_000;
    t.reply(t.used, 1_000);
    let path = t.write(&sandbox);
    let shown = render(&sandbox, &payload(&sandbox, &path, t.used, MODEL, 200_000));
    assert_eq!(shown.requests_left, None, "shrank: {}", shown.line);

    // The payload is already below the transcript's last request.
    let mut t = Transcript::starting_at(20_000);
    t.grow_all(&[10_000; 5]);
    let path = t.write(&sandbox);
    let shown = render(&sandbox, &payload(&sandbox, &path, 40_000, MODEL, 200_000));
    assert_eq!(shown.requests_left, None, "shrank since: {}", shown.line);
}

#[test]
fn the_forecast_can_be_switched_off() {
    let sandbox = Sandbox::new();
    sandbox.write(".baton/config.json", r#"{"statusline":{"forecast":false}}"#);
    let mut t = Transcript::starting_at(20_000);
    t.grow_all(&[10_000; 5]);
    let path = t.write(&sandbox);
    let shown = render(&sandbox, &payload(&sandbox, &path, t.used, MODEL, 200_000));
    assert_eq!(shown.requests_left, None);
    assert!(shown.line.ends_with(" 39%"), "{}", shown.line);
}

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
    payload["transcript_path"] = json!(parent_path);
    payload["cwd"] = json!(sandbox.project);
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
        text.starts_with("CONTEXT WARNING: Usage at 70%."),
        "the bridge's figure: {text}"
    );
    let left = truth(t.used, 180_000, &[20_000]);
    assert_eq!(left, 1);
    assert!(
        text.contains("about 20k tokens per request), about 1 more request fits before compaction"),
        "from the 160k reply, not the bridge's 140k: {text}"
    );

    // GSD's statusline wrote the bridge: a whole percentage (30% left: 140,000) below the
    // transcript's 140,600. That is rounding, not a context that shrank.
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

#[test]
fn a_payload_with_only_a_percentage_still_gets_the_forecast() {
    // No token counts (older clients, some providers): 70% of 200k is 140,000, while the
    // transcript's newest request holds 140,600 — the same request, rounded.
    let sandbox = Sandbox::new();
    let mut t = Transcript::starting_at(60_600);
    t.grow_all(&[10_000; 8]);
    let path = t.write(&sandbox);
    let mut p = payload(&sandbox, &path, t.used, MODEL, 200_000);
    p["context_window"]["current_usage"] = json!(null);
    p["context_window"]["used_percentage"] = json!(70);
    p["context_window"]["remaining_percentage"] = json!(30);
    let shown = render(&sandbox, &p);
    assert_near(
        shown.requests_left,
        truth(t.used, 180_000, &[10_000]),
        "percentage only",
    );
    // A percentage well below the newest request is a context that shrank: no forecast.
    p["context_window"]["used_percentage"] = json!(60);
    p["context_window"]["remaining_percentage"] = json!(40);
    let shown = render(&sandbox, &p);
    assert_eq!(shown.requests_left, None, "{}", shown.line);
}
