//! The monitor beside a statusline bridge file that lags the transcript, or leads it: the
//! agent is told at the first tool call after the request that crossed a threshold, with that
//! request's figure. Interactive Claude Code re-renders the statusline only now and then while
//! quick tools run (2.1.332 rendered once in eight tool calls, `probe/q8_lag.py`), and writes
//! the reply that made a tool call up to ~150 ms after starting its PostToolUse hook.

use std::path::PathBuf;
use std::sync::LazyLock;
use std::time::Duration;

use serde_json::{Value, json};

use super::forecast::{SESSION, payload};
use crate::common::*;

const MODEL: &str = "claude-sonnet-4-5";

/// The lines Claude Code 2.1.332 writes around one request (`transcript-main.jsonl`): the
/// prompt snapshot (~110 KB), the request record, the reply making a tool call, its result.
struct Templates {
    snapshot: Value,
    request: Value,
    reply: Value,
    result: Value,
    boundary: Value,
    summary: Value,
}

static TEMPLATES: LazyLock<Templates> = LazyLock::new(|| {
    let lines = |name| -> Vec<Value> {
        let text = std::fs::read_to_string(fixture_path_of("2.1.332", name)).unwrap();
        text.lines().map(|line| serde_json::from_str(line).unwrap()).collect()
    };
    let main = lines("transcript-main.jsonl");
    let compacted = lines("transcript-compacted-auto.jsonl");
    let find = |lines: &[Value], wanted: &dyn Fn(&Value) -> bool| lines.iter().find(|l| wanted(l)).unwrap().clone();
    let content_type = |l: &Value| l["message"]["content"][0]["type"].clone();
    Templates {
        snapshot: main
            .iter()
            .filter(|l| l["attachment"]["type"] == "prompt_snapshot")
            .max_by_key(|l| l.to_string().len())
            .unwrap()
            .clone(),
        request: find(&main, &|l| l["type"] == "api-request"),
        reply: find(&main, &|l| l["type"] == "assistant" && content_type(l) == "tool_use"),
        result: find(&main, &|l| l["type"] == "user" && content_type(l) == "tool_result"),
        boundary: find(&compacted, &|l| l["subtype"] == "compact_boundary"),
        summary: find(&compacted, &|l| l["isCompactSummary"] == true),
    }
});

/// A session of the main agent, its transcript written request by request as 2.1.332 does,
/// each reply making one Bash call (`toolu_lag_<n>`).
pub(super) struct Session {
    pub(super) sandbox: Sandbox,
    transcript: PathBuf,
    requests: usize,
}

impl Session {
    pub(super) fn new() -> Self {
        Self::in_sandbox(Sandbox::new())
    }

    fn in_sandbox(sandbox: Sandbox) -> Self {
        let transcript = sandbox.session_transcript(SESSION, "");
        Self {
            sandbox,
            transcript,
            requests: 0,
        }
    }

    /// The lines of the next request, whose reply reports `tokens` of context (most of it
    /// read from the prompt cache) and calls a tool; and that call's id.
    pub(super) fn next_reply(&mut self, tokens: u64) -> (String, String) {
        self.requests += 1;
        let n = self.requests;
        let id = format!("toolu_lag_{n}");
        let t = &*TEMPLATES;
        let mut request = t.request.clone();
        request["id"] = json!(format!("req-lag-{n}"));
        let mut reply = t.reply.clone();
        reply["message"]["id"] = json!(format!("msg_lag_{n}"));
        reply["message"]["content"] =
            json!([{"type": "tool_use", "id": id, "name": "Bash", "input": {"command": format!("echo step{n}")}}]);
        let usage = &mut reply["message"]["usage"];
        usage["input_tokens"] = json!(3);
        usage["cache_read_input_tokens"] = json!(tokens * 9 / 10);
        usage["cache_creation_input_tokens"] = json!(tokens - 3 - tokens * 9 / 10);
        let lines = format!("{}\n{request}\n{reply}\n", t.snapshot);
        (lines, id)
    }

    /// Writes the next reply at `tokens`; returns its tool call's id.
    pub(super) fn reply(&mut self, tokens: u64) -> String {
        let (lines, id) = self.next_reply(tokens);
        self.append(&lines);
        id
    }

    /// Writes the result of tool call `id`.
    pub(super) fn result(&self, id: &str) {
        let mut result = TEMPLATES.result.clone();
        result["message"]["content"] =
            json!([{"tool_use_id": id, "type": "tool_result", "content": "step", "is_error": false}]);
        self.append(&format!("{result}\n"));
    }

    /// Writes a compaction down to `post` tokens: the boundary and the summary.
    fn compact(&self, post: u64) {
        let mut boundary = TEMPLATES.boundary.clone();
        boundary["compactMetadata"]["postTokens"] = json!(post);
        self.append(&format!("{boundary}\n{}\n", TEMPLATES.summary));
    }

    pub(super) fn append(&self, lines: &str) {
        append(&self.transcript, lines);
    }

    /// Appends `lines` after `delay` on another thread, as Claude Code writes a reply after
    /// starting the hook of the tool call it made.
    pub(super) fn append_after(&self, lines: String, delay: Duration) -> std::thread::JoinHandle<()> {
        let transcript = self.transcript.clone();
        std::thread::spawn(move || {
            std::thread::sleep(delay);
            append(&transcript, &lines);
        })
    }

    /// Removes the transcript: the session's file is not created yet.
    pub(super) fn remove_transcript(&self) {
        std::fs::remove_file(&self.transcript).unwrap();
    }

    /// baton's statusline renders a reply at `tokens` (and writes the bridge file).
    fn render(&self, tokens: u64) {
        let payload = payload(&self.sandbox, &self.transcript, tokens, MODEL, 200_000);
        self.sandbox.statusline(&payload).assert_one_line();
        let bridge = self.sandbox.read_json(&self.sandbox.temp_file(SESSION, ".json"));
        assert_eq!(bridge["used_tokens"], tokens, "{bridge}");
    }

    /// The PostToolUse hook of tool call `id`: what it told the agent.
    pub(super) fn tool_call(&self, id: &str) -> Option<String> {
        self.tool_call_outcome(id).context()
    }

    /// The PostToolUse hook of tool call `id`, as it ran.
    pub(super) fn tool_call_outcome(&self, id: &str) -> Outcome {
        let mut hook = post_tool_use(&self.sandbox, SESSION, Some(&self.transcript));
        hook["tool_use_id"] = json!(id);
        self.sandbox.hook(&hook)
    }
}

fn append(transcript: &std::path::Path, lines: &str) {
    use std::io::Write;
    // Created by the first append, as Claude Code creates a session's transcript.
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(transcript)
        .unwrap();
    file.write_all(lines.as_bytes()).unwrap();
}

/// The warning's head: `CONTEXT WARNING: Usage at 65%. Remaining: 35%. (130k of 200k tokens in use.)`.
pub(super) fn head(text: &str) -> String {
    text.split_inclusive("in use.)").next().unwrap_or(text).to_owned()
}

fn said(warnings: &[(u64, Option<String>)]) -> Vec<(u64, Option<String>)> {
    let heads = warnings
        .iter()
        .map(|(tokens, text)| (*tokens, text.as_deref().map(head)));
    heads.collect()
}

pub(super) fn warning(level: &str, used: u64) -> Option<String> {
    Some(format!(
        "CONTEXT {level}: Usage at {used}%. Remaining: {}%. ({}k of 200k tokens in use.)",
        100 - used,
        used * 2
    ))
}

#[test]
fn a_bridge_replies_behind_gives_way_to_the_transcript_at_the_crossing_request() {
    // The statusline rendered the first reply (100k) and not again while the tools ran: its
    // fresh bridge file is one, then two, then up to six replies behind the transcript.
    let mut session = Session::new();
    let mut told = Vec::new();
    for tokens in (100_000..=160_000).step_by(10_000) {
        let id = session.reply(tokens);
        if tokens == 100_000 {
            session.render(tokens);
        }
        told.push((tokens, session.tool_call(&id)));
        session.result(&id);
    }
    assert_eq!(
        said(&told),
        [
            (100_000, None),
            (110_000, None),
            (120_000, None),
            (130_000, warning("WARNING", 65)),
            (140_000, None),
            (150_000, warning("CRITICAL", 75)),
            (160_000, None),
        ],
        "the first tool call after the 130k request warns and the one after 150k escalates, with \
         their figures; the debounce keeps the rest quiet"
    );
}

#[test]
fn the_reply_written_after_the_hook_starts_is_waited_for_near_a_threshold() {
    // 2.1.332 interactive: the hook of the 130k reply's tool call starts before that reply is
    // in the transcript (it arrives ~100 ms later); the bridge still holds the 100k reply.
    let mut session = Session::new();
    for tokens in [100_000, 110_000, 120_000] {
        let id = session.reply(tokens);
        if tokens == 100_000 {
            session.render(tokens);
        }
        assert_eq!(session.tool_call(&id), None, "{tokens}");
        session.result(&id);
    }
    let (late, id) = session.next_reply(130_000);
    let writer = session.append_after(late, Duration::from_millis(100));
    let told = session.tool_call(&id);
    writer.join().unwrap();
    assert_eq!(told.as_deref().map(head), warning("WARNING", 65));
}

#[test]
fn a_bridge_ahead_of_the_unwritten_reply_counts() {
    // The statusline rendered the 130k reply before Claude Code wrote it to the transcript,
    // which still ends at the reply before (or the one before that): the figure never goes
    // back to the transcript's older one.
    for behind in [1, 2] {
        let mut session = Session::new();
        for tokens in [100_000, 110_000, 120_000].into_iter().take(4 - behind) {
            let id = session.reply(tokens);
            session.result(&id);
        }
        let (_unwritten, id) = session.next_reply(130_000);
        session.render(130_000);
        assert_eq!(
            session.tool_call(&id).as_deref().map(head),
            warning("WARNING", 65),
            "transcript {behind} reply behind"
        );
    }
}

#[test]
fn gsds_percentage_only_bridge_two_replies_behind_gives_way() {
    // GSD's statusline wrote the bridge: 50% left, two replies ago. The transcript holds the
    // reply that made this call, at 130k.
    let mut session = Session::new();
    session.sandbox.bridge(SESSION, 50, 0);
    let id = session.reply(130_000);
    assert_eq!(session.tool_call(&id).as_deref().map(head), warning("WARNING", 65));
}

#[test]
fn gsds_rounded_percentage_is_the_transcripts_exact_figure() {
    // GSD's 35% left stands for 129,000–131,000 tokens: the transcript's 129,400 (64.7%, the
    // same reply) is the exact figure, not an older one, while the reply that made this call
    // is not written yet.
    let mut session = Session::new();
    session.sandbox.bridge(SESSION, 35, 0);
    let id = session.reply(129_400);
    session.result(&id);
    let (_unwritten, id) = session.next_reply(139_400);
    let text = session.tool_call(&id).unwrap_or_default();
    assert!(
        text.starts_with("CONTEXT WARNING: Usage at 65%. Remaining: 35%. (129k of 200k tokens in use.)"),
        "{text}"
    );
}

#[test]
fn after_a_compaction_an_older_bridge_no_longer_counts() {
    // The bridge still holds the figure from before the compaction (GSD's statusline never
    // removes its file): 83% used, written seconds ago.
    let mut session = Session::new();
    for tokens in [150_000, 160_000, 166_000] {
        let id = session.reply(tokens);
        session.result(&id);
    }
    session.sandbox.bridge(SESSION, 17, 0);
    session.compact(6_000);
    // The first tool call after it, its reply not written yet: the boundary's 6k.
    let (_unwritten, id) = session.next_reply(20_000);
    assert_eq!(session.tool_call(&id), None, "6k after the compaction");
    // Its reply written: 20k. The next call's reply not written: still 20k, as a bridge
    // 146k ahead is no reply being written.
    let id = session.reply(20_000);
    assert_eq!(session.tool_call(&id), None, "20k after the compaction");
    session.result(&id);
    let (_unwritten, id) = session.next_reply(25_000);
    assert_eq!(session.tool_call(&id), None, "the next call, 20k known");
}

#[test]
fn a_raised_cap_on_tool_results_lets_a_bridge_further_ahead_count() {
    // The bridge is 60k ahead of the transcript: more than one request adds under Claude Code's
    // 25k-token caps on tool results, so it is taken for an older context; with MCP results
    // allowed 80k tokens it can be the reply being written.
    for (cap, expected) in [(None, None), (Some("80000"), warning("WARNING", 65))] {
        let sandbox = match cap {
            Some(cap) => Sandbox::new().env("MAX_MCP_OUTPUT_TOKENS", cap),
            None => Sandbox::new(),
        };
        let mut session = Session::in_sandbox(sandbox);
        let id = session.reply(70_000);
        session.result(&id);
        let (_unwritten, id) = session.next_reply(130_000);
        session.render(130_000);
        assert_eq!(session.tool_call(&id).as_deref().map(head), expected, "cap {cap:?}");
    }
}
