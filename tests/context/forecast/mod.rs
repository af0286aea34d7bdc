//! The compaction forecast through the built binary, on transcripts whose growth is known:
//! steady, bursty, one 60k tool result, after a compaction, shrinking, too short. Where a
//! forecast is shown (the statusline's `≈N left`, the bridge's `requests_left`, the monitor's
//! warning) it is within one request of the truth: the requests that still start below the
//! limit when the session goes on growing the same way. Where it should not be, it is absent.
//! The transcripts and the truth are here; the statusline's and the monitor's tests in
//! `statusline.rs` and `monitor.rs`.

mod monitor;
mod statusline;

use serde_json::{Value, json};

use crate::common::*;

pub(super) const SESSION: &str = "f0ca5700-0000-4000-8000-00000000f0ca";
const MODEL: &str = "claude-sonnet-4-5";

/// A transcript written the way Claude Code 2.1.332 writes one, request by request.
pub(crate) struct Transcript {
    text: String,
    requests: usize,
    /// The context's tokens at the last request.
    pub(crate) used: u64,
}

impl Transcript {
    pub(crate) fn starting_at(tokens: u64) -> Self {
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

    pub(crate) fn grow_all(&mut self, growths: &[u64]) -> &mut Self {
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

    pub(crate) fn write(&self, sandbox: &Sandbox) -> std::path::PathBuf {
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
pub(crate) fn payload(sandbox: &Sandbox, transcript: &std::path::Path, used: u64, model: &str, window: u64) -> Value {
    let mut p = fixture_of("2.1.332", "statusline.json");
    p["session_id"] = json!(SESSION);
    p["cwd"] = json!(native(&sandbox.project));
    p["workspace"]["current_dir"] = json!(native(&sandbox.project));
    p["transcript_path"] = json!(native(transcript));
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
        shown.requests_left.map(|n| if n > 99 {
            "≈99+ left".to_owned()
        } else {
            format!("≈{n} left")
        }),
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
