//! The attribution on transcripts shaped like Claude Code 2.1.332's.

use serde_json::json;

use super::codec::{Input, Stored};
use super::*;

/// Lines of a transcript, as the client writes them.
#[derive(Default)]
struct Transcript {
    lines: Vec<String>,
    responses: usize,
}

impl Transcript {
    fn push(&mut self, value: serde_json::Value) -> &mut Self {
        self.lines.push(value.to_string());
        self
    }

    fn prompt(&mut self, text: &str) -> &mut Self {
        self.push(json!({"type":"user","isSidechain":false,"cwd":"/home/u/proj",
            "message":{"role":"user","content":text},"timestamp":"2026-11-30T16:42:11.908Z"}))
    }

    /// An assistant response whose request had `context` tokens, calling `tools`
    /// (`(id, name, input)`), each block on its own line as the client streams them.
    fn reply(&mut self, context: u64, tools: &[(&str, &str, serde_json::Value)]) -> &mut Self {
        self.responses += 1;
        let id = format!("msg_{}", self.responses);
        let usage = json!({"input_tokens": 3, "cache_creation_input_tokens": 100,
            "cache_read_input_tokens": context - 103, "output_tokens": 50});
        let mut blocks: Vec<serde_json::Value> = vec![json!({"type":"text","text":"Looking."})];
        blocks.extend(
            tools
                .iter()
                .map(|(id, name, input)| json!({"type":"tool_use","id":id,"name":name,"input":input})),
        );
        for block in blocks {
            self.push(
                json!({"type":"assistant","isSidechain":false,"requestId":format!("req_{id}"),
                "message":{"id":id,"role":"assistant","model":"claude-sonnet-4-5","content":[block],"usage":usage},
                "timestamp":"2026-11-30T16:43:00.000Z"}),
            );
        }
        self
    }

    fn result(&mut self, id: &str, bytes: usize) -> &mut Self {
        self.push(
            json!({"type":"user","isSidechain":false,"message":{"role":"user","content":[
            {"type":"tool_result","tool_use_id":id,"content":"x".repeat(bytes)}]}}),
        )
    }

    fn attachment(&mut self, kind: &str, rendered: usize) -> &mut Self {
        self.push(
            json!({"type":"attachment","isSidechain":false,"attachment":{"type":kind},
            "rendered":[{"content":"r".repeat(rendered)}]}),
        )
    }

    fn read(&self) -> Timeline {
        read_from(self.lines.join("\n").as_bytes()).unwrap()
    }
}

fn named(items: &[Item]) -> Vec<(String, i64)> {
    items.iter().map(|i| (i.name(), i.tokens)).collect()
}

#[test]
fn each_request_s_growth_goes_to_what_entered_before_it() {
    let timeline = Transcript::default()
        .prompt("fix the ledger")
        .reply(
            20_000,
            &[(
                "t1",
                "Read",
                json!({"file_path":"/home/u/proj/src/billing/ledger_dump.sql"}),
            )],
        )
        .result("t1", 90_000)
        .reply(51_000, &[("t2", "Bash", json!({"command":"npm test"}))])
        .result("t2", 30_000)
        .reply(61_000, &[])
        .read();
    let requests = &timeline.requests;
    assert_eq!(requests.len(), 3);
    assert_eq!((requests[0].context_tokens, requests[0].delta), (20_000, 20_000));
    assert!(requests[0].items.is_empty(), "the first request is the baseline");
    assert_eq!(timeline.live.baseline, 20_000);
    // Request 2 grew 31k: the Read result (90 KB) and the assistant's call (a few hundred bytes).
    assert_eq!(requests[1].delta, 31_000);
    assert_eq!(requests[1].items[0].name(), "Read src/billing/ledger_dump.sql");
    assert!(requests[1].items[0].tokens > 30_000 && requests[1].items[0].estimated);
    for request in requests {
        if request.n > 1 {
            assert_eq!(
                request.items.iter().map(|i| i.tokens).sum::<i64>(),
                request.delta,
                "{request:?}"
            );
        }
    }
    assert_eq!(requests[2].items[0].name(), "Bash npm test");
    let live = &timeline.live;
    assert_eq!(live.tokens, 61_000);
    assert_eq!(live.items[0].name(), "Read src/billing/ledger_dump.sql");
    assert_eq!(live.items[1].name(), "Bash npm test");
    assert_eq!(
        live.baseline as i64 + live.by_kind.values().sum::<i64>(),
        live.tokens as i64
    );
}

#[test]
fn streamed_lines_of_one_response_are_one_request() {
    let timeline = Transcript::default()
        .prompt("go")
        .reply(
            20_000,
            &[
                ("a", "Grep", json!({"pattern":"TODO","path":"/home/u/proj/src"})),
                ("b", "Glob", json!({"pattern":"**/*.rs"})),
            ],
        )
        .result("a", 4_000)
        .result("b", 1_000)
        .reply(25_000, &[])
        .read();
    assert_eq!(timeline.requests.len(), 2);
    let items = named(&timeline.requests[1].items);
    assert_eq!(items[0].0, "Grep \"TODO\" src");
    assert!(items.iter().any(|(name, _)| name == "Glob **/*.rs"), "{items:?}");
    assert_eq!(items.iter().map(|(_, t)| t).sum::<i64>(), 5_000);
}

#[test]
fn attachments_count_what_was_rendered_and_subagents_by_type() {
    let timeline = Transcript::default()
        .prompt("go")
        .reply(
            20_000,
            &[("s", "Agent", json!({"subagent_type":"Explore","prompt":"find it"}))],
        )
        .result("s", 8_000)
        .attachment("hook_additional_context", 2_000)
        .push(json!({"type":"attachment","attachment":{"type":"prompt_snapshot","systemPrompt":"p".repeat(50_000)}}))
        .reply(30_000, &[])
        .read();
    let items = named(&timeline.requests[1].items);
    assert_eq!(items[0].0, "Agent Explore");
    assert!(
        items.iter().any(|(name, _)| name == "hook_additional_context"),
        "{items:?}"
    );
    // The snapshot of the system prompt is the client's record, not context.
    assert!(
        !items.iter().any(|(name, _)| name.contains("prompt_snapshot")),
        "{items:?}"
    );
    assert!(items[0].1 > 7_000, "{items:?}");
}

#[test]
fn a_compaction_resets_the_live_context() {
    let timeline = Transcript::default()
        .prompt("go")
        .reply(20_000, &[("t1", "Read", json!({"file_path":"/home/u/proj/big.log"}))])
        .result("t1", 100_000)
        .reply(150_000, &[])
        .push(json!({"type":"system","subtype":"compact_boundary","compactMetadata":{"trigger":"auto","preTokens":150_000,"postTokens":6_000}}))
        .push(json!({"type":"user","isCompactSummary":true,"message":{"role":"user","content":"This session is being continued. Summary: …"}}))
        .prompt("and now the tests")
        .reply(27_000, &[])
        .read();
    assert_eq!(
        timeline.compactions,
        vec![Compaction {
            before_request: 3,
            tokens_before: Some(150_000),
            tokens_after: Some(6_000)
        }]
    );
    let after = &timeline.requests[2];
    assert_eq!(after.delta, 7_000, "grown from the baseline");
    assert!(after.items.iter().any(|i| i.kind == Kind::Summary));
    assert!(timeline.live.items.iter().all(|i| i.name() != "Read big.log"));
    assert_eq!(timeline.live.tokens, 27_000);
}

#[test]
fn a_context_that_shrank_without_compaction_is_one_cleared_item() {
    let timeline = Transcript::default()
        .prompt("go")
        .reply(50_000, &[("t", "Bash", json!({"command":"ls"}))])
        .result("t", 100)
        .reply(40_000, &[])
        .read();
    assert_eq!(
        named(&timeline.requests[1].items),
        vec![("cleared".to_owned(), -10_000)]
    );
}

#[test]
fn side_chains_errors_and_garbage_are_not_the_conversation() {
    let mut transcript = Transcript::default();
    transcript.prompt("go").reply(20_000, &[]);
    transcript.lines.push("{not json".into());
    transcript.lines.push(String::new());
    transcript.push(
        json!({"type":"assistant","isSidechain":true,"message":{"id":"side","model":"claude-haiku-4-5",
        "content":[],"usage":{"input_tokens":90_000}}}),
    );
    transcript.push(
        json!({"type":"assistant","isApiErrorMessage":true,"message":{"id":"err","model":"<synthetic>",
        "content":[{"type":"text","text":"API Error"}],"usage":{"input_tokens":0}}}),
    );
    transcript.push(json!({"type":"api-request-blob","message":{"role":"user","content":"y".repeat(1000)}}));
    transcript.push(json!({"type":"assistant","isSidechain":"yes","message":{"id":7}}));
    transcript.prompt("more").reply(21_000, &[]);
    let timeline = transcript.read();
    assert_eq!(timeline.requests.len(), 2);
    assert_eq!(timeline.requests[1].delta, 1_000);
    assert_eq!(timeline.unreadable_lines, 1);
    assert_eq!(timeline.model.as_deref(), Some("claude-sonnet-4-5"));
}

#[test]
fn a_subagent_s_own_transcript_is_read_as_its_conversation() {
    let mut transcript = Transcript::default();
    transcript
        .prompt("task")
        .reply(10_000, &[("r", "Read", json!({"file_path":"/home/u/proj/a.rs"}))]);
    transcript.result("r", 5_000).reply(12_000, &[]);
    let sidechain: Vec<String> = transcript
        .lines
        .iter()
        .map(|l| l.replace("\"isSidechain\":false", "\"isSidechain\":true"))
        .collect();
    let timeline = read_from(sidechain.join("\n").as_bytes()).unwrap();
    assert_eq!(timeline.requests.len(), 2);
    assert_eq!(timeline.live.items[0].name(), "Read a.rs");
}

#[test]
fn counts_no_context_reaches_neither_wrap_nor_panic() {
    let mut transcript = Transcript::default();
    transcript.prompt("go").reply(20_000, &[]);
    for (id, count) in [("huge", u64::MAX), ("half", (1 << 63) + 5), ("back", 1)] {
        transcript.push(
            json!({"type":"assistant","isSidechain":false,"requestId":id,"message":{"id":id,
            "content":[{"type":"text","text":"x"}],"usage":{"input_tokens":count}}}),
        );
    }
    transcript.prompt("more").reply(30_000, &[]);
    let timeline = transcript.read();
    let contexts: Vec<u64> = timeline.requests.iter().map(|r| r.context_tokens).collect();
    assert_eq!(
        contexts,
        vec![20_000, 1, 30_000],
        "the counts no context reaches are no request"
    );
    for request in &timeline.requests[1..] {
        let items: i64 = request.items.iter().map(|i| i.tokens).sum();
        assert_eq!(items, request.delta, "{request:?}");
    }
    assert!(timeline.live.items.iter().all(|i| i.tokens <= 30_000));
}

#[test]
fn a_response_repeated_later_is_counted_once() {
    let mut transcript = Transcript::default();
    transcript
        .prompt("go")
        .reply(20_000, &[("r", "Read", json!({"file_path":"/home/u/proj/a.rs"}))])
        .result("r", 5_000)
        .reply(30_000, &[]);
    // A resumed session copies the first response again, then goes on.
    let copied = transcript.lines[1].clone();
    transcript.lines.push(copied);
    transcript.prompt("more").reply(31_000, &[]);
    let timeline = transcript.read();
    let deltas: Vec<i64> = timeline.requests.iter().map(|r| r.delta).collect();
    assert_eq!(deltas, vec![20_000, 10_000, 1_000], "no made-up shrink and regrowth");
    assert!(!timeline.live.by_kind.contains_key(&Kind::Cleared));
    assert_eq!(named(&timeline.live.items)[0].0, "Read a.rs");
}

#[test]
fn names_carry_no_escape_newline_or_bidi_control() {
    let timeline = Transcript::default()
        .prompt("go \u{1b}[31mred\u{1b}[0m")
        .reply(
            20_000,
            &[
                ("b", "Bash", json!({"command":"echo \u{1b}[2J\u{202e}evil\ttab"})),
                ("r", "Read", json!({"file_path":"/p/ev\u{1b}]0;title\u{7}il\nname.rs"})),
            ],
        )
        .result("b", 3_000)
        .result("r", 3_000)
        .reply(30_000, &[])
        .read();
    let names: Vec<String> = timeline.live.items.iter().map(Item::name).collect();
    assert!(names.contains(&"Bash echo [2Jeviltab".to_owned()), "{names:?}");
    for name in &names {
        assert!(!name.chars().any(|c| c.is_control() || c == '\u{202e}'), "{name:?}");
    }
}

#[test]
fn a_compaction_forgets_the_responses_counted_before_it() {
    let mut transcript = Transcript::default();
    transcript.prompt("go");
    for n in 0..50 {
        transcript.reply(20_000 + n * 100, &[]);
    }
    transcript.push(
        json!({"type":"system","subtype":"compact_boundary","compactMetadata":{"preTokens":30_000,"postTokens":3_000}}),
    );
    transcript.reply(5_000, &[]);
    let mut walk = walk::Walk::new();
    for line in &transcript.lines {
        walk.line(line.as_bytes());
    }
    let mut saved = Vec::new();
    walk.store(&mut saved);
    assert!(
        saved.len() < 200,
        "the saved walk keeps one response's key, not 51 (408 bytes): {} bytes",
        saved.len()
    );
}

#[test]
fn the_chart_says_how_many_lines_it_could_not_read() {
    let mut transcript = Transcript::default();
    transcript.prompt("go").reply(20_000, &[]);
    transcript
        .lines
        .push("{\"type\":\"user\",\"message\":{\"content\":\"cut sh".into());
    transcript.lines.push("\u{0}\u{0}garbage".into());
    transcript.reply(25_000, &[]);
    let style = chart::Style {
        width: 80,
        color: false,
        top: 3,
    };
    let text = chart::render("s", &transcript.read(), 200_000, 167_000, &style);
    assert!(text.contains("2 unreadable line(s) left out"), "{text}");
    let clean = Transcript::default().prompt("go").reply(20_000, &[]).read();
    assert!(!chart::render("s", &clean, 200_000, 167_000, &style).contains("unreadable"));
}

#[test]
fn a_tail_starts_at_its_first_whole_line_and_says_whether_it_was_the_whole() {
    let mut t = Transcript::default();
    t.prompt("go")
        .reply(
            20_000,
            &[("toolu_1", "Read", json!({"file_path":"/home/u/proj/a.sql"}))],
        )
        .result("toolu_1", 40_000)
        .reply(32_000, &[("toolu_2", "Bash", json!({"command":"npm test"}))])
        .result("toolu_2", 8_000)
        .reply(34_000, &[]);
    let text = t.lines.join("\n") + "\n";
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.jsonl");
    std::fs::write(&path, &text).unwrap();

    let (whole, was_whole) = read_tail(&path, 1 << 20).unwrap();
    assert!(was_whole);
    assert_eq!(whole.requests.len(), 3);

    // A tail cut inside the Read's result: that line is left out, the next request is the
    // first one read.
    let inside_read = text.find(&"x".repeat(100)).unwrap() + 50;
    let (tail, was_whole) = read_tail(&path, (text.len() - inside_read) as u64).unwrap();
    assert!(!was_whole);
    assert_eq!(tail.requests.len(), 2, "the two replies after the Read's result");
    assert_eq!(tail.requests[0].context_tokens, 32_000);
    assert!(named(&tail.live.items).iter().all(|(name, _)| !name.contains("a.sql")));
    assert!(
        named(&tail.live.items).iter().any(|(name, _)| name == "Bash npm test"),
        "{:?}",
        tail.live.items
    );

    // A tail that starts exactly on a line keeps that line.
    let last_line = text[..text.len() - 1].rfind('\n').unwrap() + 1;
    let (last, _) = read_tail(&path, (text.len() - last_line) as u64).unwrap();
    assert_eq!(last.requests.len(), 1);
    assert_eq!(last.requests[0].context_tokens, 34_000);
}

#[test]
fn a_running_walk_keeps_the_largest_live_items_and_no_requests() {
    let mut transcript = Transcript::default();
    transcript.prompt("read them all").reply(20_000, &[]);
    // 300 files read one per request, the 150th the largest by far.
    for n in 0..300u64 {
        let id = format!("toolu_{n}");
        let grown = if n == 150 { 40_000 } else { 100 + n };
        let context = 20_000 + n * 500 + if n > 150 { 40_000 } else { 0 };
        transcript
            .reply(
                context,
                &[(&id, "Read", json!({"file_path": format!("/home/u/proj/src/f{n}.rs")}))],
            )
            .result(&id, grown as usize);
    }
    transcript.reply(20_000 + 300 * 500 + 40_000, &[]);
    let mut running = walk::Walk::new();
    let mut kept = walk::Walk::keeping_requests();
    for line in &transcript.lines {
        running.line(line.as_bytes());
        kept.line(line.as_bytes());
    }
    assert!(running.live.len() <= 128, "{}", running.live.len());
    assert!(running.requests.is_empty(), "the monitor's walk keeps no requests");
    let (running, kept) = (running.largest(), kept.largest());
    assert!(kept.len() > 300, "`baton window` keeps every item: {}", kept.len());
    assert_eq!(named(&running[..3]), named(&kept[..3]), "the largest are the same");
    assert!(running[0].name().ends_with("src/f150.rs"), "{:?}", named(&running[..3]));
}

#[test]
fn a_walk_saved_and_taken_up_again_finds_what_one_walk_finds() {
    let mut transcript = Transcript::default();
    transcript
        .prompt("go")
        .reply(20_000, &[("a", "Read", json!({"file_path":"/p/a.rs"}))])
        .result("a", 4_000)
        .reply(30_000, &[("b", "Bash", json!({"command":"make"}))]);
    let cut = transcript.lines.len();
    // The result of a call made before the save, a repeated response, then a compaction.
    transcript.result("b", 9_000).reply(45_000, &[]);
    let repeated = transcript.lines[1].clone();
    transcript.push(serde_json::from_str(&repeated).unwrap());
    transcript
        .prompt("more")
        .reply(46_000, &[("c", "Read", json!({"file_path":"/p/c.rs"}))])
        .result("c", 2_000)
        .reply(50_000, &[]);
    let mut whole = walk::Walk::new().keeping_recent();
    let mut saved_walk = walk::Walk::new().keeping_recent();
    for (n, line) in transcript.lines.iter().enumerate() {
        whole.line(line.as_bytes());
        if n == cut {
            let mut saved = Vec::new();
            saved_walk.store(&mut saved);
            let mut input = Input::new(&saved);
            saved_walk = walk::Walk::restore(&mut input).expect("a saved walk reads back");
            assert!(input.is_done());
        }
        saved_walk.line(line.as_bytes());
    }
    let (whole, taken_up) = (timeline(whole), timeline(saved_walk));
    assert_eq!(named(&taken_up.live.items), named(&whole.live.items));
    assert_eq!(
        named(&taken_up.live.items)[0].0,
        "Bash make",
        "{:?}",
        named(&taken_up.live.items)
    );
    let contexts = |t: &Timeline| {
        t.requests
            .iter()
            .map(|r| (r.context_tokens, r.delta))
            .collect::<Vec<_>>()
    };
    assert_eq!(contexts(&taken_up), contexts(&whole));
    assert_eq!(taken_up.live.by_kind, whole.live.by_kind);
    assert_eq!(taken_up.model, whole.model);
}

#[test]
fn a_saved_walk_cut_short_or_with_any_figures_is_none_or_taken_up_without_overflow() {
    let mut transcript = Transcript::default();
    transcript
        .prompt("go")
        .reply(20_000, &[("r", "Read", json!({"file_path":"/a"}))]);
    let mut walk = walk::Walk::new();
    for line in &transcript.lines {
        walk.line(line.as_bytes());
    }
    let mut saved = Vec::new();
    walk.store(&mut saved);
    for cut in 0..saved.len() {
        let mut input = Input::new(&saved[..cut]);
        assert!(walk::Walk::restore(&mut input).is_none(), "cut at {cut}");
    }
    // Any byte changed reads as some walk or none: each goes on without a panic.
    for at in 0..saved.len() {
        for byte in [0u8, 1, 0x7f, 0xff] {
            let mut changed = saved.clone();
            changed[at] = byte;
            if let Some(mut walk) = walk::Walk::restore(&mut Input::new(&changed)) {
                walk.line(
                    br#"{"type":"assistant","message":{"id":"m9","usage":{"input_tokens":18446744073709551615}}}"#,
                );
                walk.line(br#"{"type":"assistant","message":{"id":"m8","usage":{"input_tokens":4294967296}}}"#);
                let _ = walk.largest();
            }
        }
    }
}

#[test]
fn items_of_the_same_size_are_ordered_by_their_names() {
    let item = |kind, tool: Option<&str>, target: Option<&str>| Item {
        tool: tool.map(str::to_owned),
        target: target.map(str::to_owned),
        ..Item::whole(kind, 1_000)
    };
    let items = [
        item(Kind::Tool, Some("Read"), Some("src/a.rs")),
        item(Kind::Tool, Some("Read"), Some("src/a.rs~")),
        item(Kind::Tool, Some("Read"), None),
        item(Kind::Tool, Some("Readme"), Some("a")),
        item(Kind::Tool, None, None),
        item(Kind::Assistant, Some("Write"), Some("b")),
        item(Kind::Assistant, None, None),
        item(Kind::Prompt, None, Some("fix it")),
        item(Kind::Prompt, None, Some("fix")),
        item(Kind::Attachment, Some("todo"), Some("é")),
        item(Kind::Attachment, Some("todo"), Some("z")),
        item(Kind::Thinking, None, None),
    ];
    for a in &items {
        for b in &items {
            assert_eq!(a.cmp_names(b), a.name().cmp(&b.name()), "{} / {}", a.name(), b.name());
        }
    }
}
