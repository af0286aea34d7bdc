//! `baton window` through the built binary: a session's requests with what entered before
//! each, the live context's largest items, compactions, subagents, the captured client's own
//! transcript, bad arguments, and a large transcript in flat memory.

use serde_json::{Value, json};

use crate::common::*;

pub(crate) const SESSION: &str = "5b1e0c2a-0000-4000-8000-00000000f111";

/// A session shaped like Claude Code 2.1.332's transcripts: prompts, attachments with what
/// was rendered, responses streamed a block per line, tool results, a request record.
pub(crate) struct Session {
    lines: Vec<String>,
    replies: usize,
    cwd: String,
}

impl Session {
    pub(crate) fn new(sandbox: &Sandbox) -> Self {
        Self {
            lines: Vec::new(),
            replies: 0,
            cwd: native(std::fs::canonicalize(&sandbox.project).unwrap()),
        }
    }

    pub(crate) fn line(&mut self, value: Value) -> &mut Self {
        self.lines.push(value.to_string());
        self
    }

    pub(crate) fn prompt(&mut self, text: &str) -> &mut Self {
        let cwd = self.cwd.clone();
        self.line(json!({"parentUuid":null,"isSidechain":false,"type":"user","cwd":cwd,
            "message":{"role":"user","content":text},"timestamp":"2026-12-07T10:00:00.000Z"}))
    }

    pub(crate) fn reply(&mut self, context: u64, tool: Option<(&str, Value)>) -> &mut Self {
        self.replies += 1;
        let id = format!("msg_{:04}", self.replies);
        let usage = json!({"input_tokens":2,"cache_creation_input_tokens":300,
            "cache_read_input_tokens":context - 302,"output_tokens":40});
        let mut blocks = vec![json!({"type":"text","text":"On it."})];
        if let Some((name, input)) = tool {
            blocks.push(json!({"type":"tool_use","id":format!("toolu_{id}"),"name":name,"input":input}));
        }
        for block in blocks {
            self.line(
                json!({"parentUuid":"p","isSidechain":false,"type":"assistant","requestId":format!("req_{id}"),
                "message":{"id":id,"type":"message","role":"assistant","model":"claude-sonnet-4-5",
                    "content":[block],"usage":usage},"timestamp":"2026-12-07T10:01:00.000Z"}),
            );
        }
        self
    }

    /// The result of the last reply's tool call, `bytes` long (and the client's request
    /// record that repeats it, which must not count twice).
    pub(crate) fn result(&mut self, bytes: usize) -> &mut Self {
        let id = format!("toolu_msg_{:04}", self.replies);
        let body = "x".repeat(bytes);
        self.line(
            json!({"type":"api-request-blob","sessionId":SESSION,"message":{"role":"user",
            "content":[{"type":"tool_result","tool_use_id":id,"content":body}]}}),
        );
        self.line(
            json!({"parentUuid":"p","isSidechain":false,"type":"user","message":{"role":"user",
            "content":[{"tool_use_id":id,"type":"tool_result","content":body}]}}),
        )
    }

    pub(crate) fn write(&self, sandbox: &Sandbox, session: &str) -> std::path::PathBuf {
        sandbox.session_transcript(session, &(self.lines.join("\n") + "\n"))
    }
}

fn window_json(sandbox: &Sandbox, args: &[&str]) -> Value {
    let mut all = vec!["window", "--json"];
    all.extend_from_slice(args);
    let out = sandbox.run(&all, b"");
    assert_eq!((out.code, out.stderr.as_str()), (Some(0), ""), "{out:?}");
    serde_json::from_str(&out.stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {}", out.stdout))
}

pub(crate) fn a_working_session(sandbox: &Sandbox) -> Session {
    a_session_reading(sandbox, "src/billing/ledger_dump.sql")
}

/// [`a_working_session`] with the file it reads at `dump` (relative to the project), for the
/// guide's examples.
pub(crate) fn a_session_reading(sandbox: &Sandbox, dump: &str) -> Session {
    let cwd = native(std::fs::canonicalize(&sandbox.project).unwrap());
    let mut session = Session::new(sandbox);
    session
        .prompt("export the ledger")
        .reply(20_000, Some(("Read", json!({"file_path": format!("{cwd}/{dump}")}))))
        .result(120_000)
        .reply(
            52_000,
            Some(("Bash", json!({"command":"npm test","description":"run the tests"}))),
        )
        .result(40_000)
        .reply(
            62_500,
            Some(("Grep", json!({"pattern":"TODO","path": format!("{cwd}/src")}))),
        )
        .result(2_000)
        .reply(63_100, None);
    session
}

#[test]
fn each_request_is_split_over_the_results_that_entered_before_it() {
    let sandbox = Sandbox::new();
    a_working_session(&sandbox).write(&sandbox, SESSION);
    let answer = window_json(&sandbox, &[]);
    assert_eq!(answer["session"], SESSION);
    assert_eq!(answer["model"], "claude-sonnet-4-5");
    assert_eq!(answer["window"], 200_000);
    let requests = answer["requests"].as_array().unwrap();
    let sizes: Vec<u64> = requests.iter().map(|r| r["context_tokens"].as_u64().unwrap()).collect();
    assert_eq!(sizes, [20_000, 52_000, 62_500, 63_100]);
    assert_eq!(requests[1]["delta"], 32_000);
    for request in &requests[1..] {
        let items: i64 = request["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["tokens"].as_i64().unwrap())
            .sum();
        assert_eq!(
            items,
            request["delta"].as_i64().unwrap(),
            "items add up to the delta: {request}"
        );
    }
    let first = &requests[1]["items"][0];
    assert_eq!(
        (&first["kind"], &first["tool"], &first["target"]),
        (&json!("tool"), &json!("Read"), &json!("src/billing/ledger_dump.sql"))
    );
    assert_eq!(first["estimated"], true);
    // The request record repeating the result did not count: the Read took nearly all 32k.
    assert!(first["tokens"].as_i64().unwrap() > 31_000, "{first}");
    let live = &answer["live"];
    assert_eq!(
        (live["tokens"].as_u64(), live["baseline"].as_u64()),
        (Some(63_100), Some(20_000))
    );
    let names: Vec<String> = live["items"]
        .as_array()
        .unwrap()
        .iter()
        .take(3)
        .map(|i| format!("{} {}", i["tool"].as_str().unwrap(), i["target"].as_str().unwrap()))
        .collect();
    assert_eq!(
        names,
        ["Read src/billing/ledger_dump.sql", "Bash npm test", "Grep \"TODO\" src"]
    );
    let by_kind: i64 = live["by_kind"]
        .as_object()
        .unwrap()
        .values()
        .map(|v| v.as_i64().unwrap())
        .sum();
    assert_eq!(by_kind, 63_100 - 20_000);
}

#[test]
fn the_chart_names_the_largest_items_in_the_terminal_s_width() {
    let sandbox = Sandbox::new()
        .env("COLUMNS", "90")
        .env("NO_COLOR", "1")
        .env("TZ", "UTC");
    a_working_session(&sandbox).write(&sandbox, SESSION);
    let out = sandbox.run(&["window", "--top", "2"], b"");
    assert_eq!((out.code, out.stderr.as_str()), (Some(0), ""), "{out:?}");
    let text = &out.stdout;
    assert!(
        text.starts_with(&format!("Context of session {SESSION}\nclaude-sonnet-4-5, window 200k")),
        "{text}"
    );
    let rows: Vec<&str> = text.lines().filter(|l| l.starts_with("   ")).collect();
    assert_eq!(rows.len(), 4, "{text}");
    assert!(
        rows[0].contains("baseline")
            && rows[1].contains("+32k")
            && rows[1].contains("  Read ")
            && rows[1].ends_with("ledger_dump.sql"),
        "{text}"
    );
    assert!(rows[3].chars().filter(|c| *c == '█').count() > rows[0].chars().filter(|c| *c == '█').count());
    for line in text.lines() {
        assert!(unicode_width(line) <= 90, "wider than COLUMNS: {line:?}");
    }
    assert!(!text.contains('\u{1b}'), "NO_COLOR: {text}");
    let largest = text.split("Largest in the live context:\n").nth(1).unwrap();
    let listed: Vec<&str> = largest.lines().take_while(|l| l.starts_with("  ")).collect();
    assert_eq!(listed.len(), 2, "--top 2: {text}");
    assert!(listed[0].trim_start().starts_with("Read src/billing/ledger_dump.sql") && listed[0].ends_with('%'));
    assert!(text.contains("By kind: tool results"), "{text}");
}

#[test]
fn a_narrow_terminal_gets_every_line_within_its_width() {
    for columns in [40, 52, 60] {
        let sandbox = Sandbox::new().env("COLUMNS", &columns.to_string()).env("NO_COLOR", "1");
        let mut session = a_working_session(&sandbox);
        session
            .line(
                json!({"type":"system","subtype":"compact_boundary","content":"Conversation compacted",
                "compactMetadata":{"trigger":"auto","preTokens":63_100,"postTokens":5_800}}),
            )
            .line(
                json!({"type":"user","isSidechain":false,"isCompactSummary":true,"message":{"role":"user",
                "content":format!("This session is being continued. {}", "s".repeat(20_000))}}),
            )
            .reply(
                26_000,
                Some(("Bash", json!({"command":"cargo test --workspace --all-features"}))),
            )
            .result(30_000)
            .reply(34_000, None);
        session.write(&sandbox, SESSION);
        let out = sandbox.run(&["window"], b"");
        assert_eq!((out.code, out.stderr.as_str()), (Some(0), ""), "{out:?}");
        for line in out.stdout.lines() {
            assert!(
                unicode_width(line) <= columns,
                "wider than {columns}: {line:?}\n{}",
                out.stdout
            );
        }
        assert!(out.stdout.contains("Largest in the live context:"), "{}", out.stdout);
        let unwrapped = out.stdout.replace("\n  ", " ");
        assert!(
            unwrapped.contains("memory files) since the last compaction"),
            "the wrapped heading keeps its words: {}",
            out.stdout
        );
    }
}

#[test]
fn a_huge_or_odd_terminal_width_and_top_0_draw_a_sane_chart() {
    for columns in ["100000000000", "0", "-3", "wide", "1"] {
        let sandbox = Sandbox::new().env("COLUMNS", columns).env("NO_COLOR", "1");
        a_working_session(&sandbox).write(&sandbox, SESSION);
        let out = sandbox.run(&["window", "--top", "0"], b"");
        assert_eq!(
            (out.code, out.stderr.as_str()),
            (Some(0), ""),
            "COLUMNS={columns}: {out:?}"
        );
        let widest = out.stdout.lines().map(unicode_width).max().unwrap_or(0);
        assert!(widest <= 1000, "COLUMNS={columns}: a line {widest} wide");
        assert!(
            !out.stdout.contains("Largest in the live context"),
            "--top 0 lists nothing: {}",
            out.stdout
        );
        assert!(out.stdout.contains("By kind: tool results"), "{}", out.stdout);
    }
}

/// Terminal cells of `line`.
fn unicode_width(line: &str) -> usize {
    unicode_width::UnicodeWidthStr::width(line)
}

#[test]
fn a_compaction_resets_the_live_context_to_its_summary() {
    let sandbox = Sandbox::new();
    let mut session = a_working_session(&sandbox);
    session
        .line(json!({"type":"system","subtype":"compact_boundary","content":"Conversation compacted",
            "compactMetadata":{"trigger":"auto","preTokens":63_100,"postTokens":5_800}}))
        .line(json!({"type":"user","isSidechain":false,"isCompactSummary":true,"message":{"role":"user",
            "content":format!("This session is being continued from a previous conversation. {}", "s".repeat(20_000))}}))
        .prompt("now the tests")
        .reply(26_000, None);
    session.write(&sandbox, SESSION);
    let answer = window_json(&sandbox, &["--session", SESSION]);
    assert_eq!(
        answer["compactions"],
        json!([{"before_request": 5, "tokens_before": 63_100, "tokens_after": 5_800}])
    );
    let live = &answer["live"];
    assert_eq!(live["tokens"], 26_000);
    let kinds: Vec<&str> = live["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds[0], "summary", "{live}");
    assert!(
        !kinds.contains(&"tool"),
        "what came before the compaction is gone: {live}"
    );
    let sandbox = Sandbox::new().env("NO_COLOR", "1");
    session.write(&sandbox, SESSION);
    let text = sandbox.run(&["window"], b"").stdout;
    assert!(text.contains("── compacted: 63k → 6k ──"), "{text}");
}

#[test]
fn a_subagent_is_one_item_and_its_own_transcript_is_read_by_its_id() {
    let sandbox = Sandbox::new();
    let mut main = Session::new(&sandbox);
    main.prompt("look around")
        .reply(
            20_000,
            Some((
                "Agent",
                json!({"description":"explore","prompt":"map the code","subagent_type":"Explore"}),
            )),
        )
        .result(6_000)
        .reply(21_800, None);
    let path = main.write(&sandbox, SESSION);
    let mut sub = Session::new(&sandbox);
    sub.prompt("map the code")
        .reply(9_000, Some(("Glob", json!({"pattern":"**/*.ts"}))))
        .result(3_000)
        .reply(10_000, None);
    let sub_lines: Vec<String> = sub
        .lines
        .iter()
        .map(|l| l.replace("\"isSidechain\":false", "\"isSidechain\":true"))
        .collect();
    let dir = path.with_file_name(SESSION).join("subagents");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("agent-a53f90af8f9d0a1b5.jsonl"), sub_lines.join("\n")).unwrap();
    let answer = window_json(&sandbox, &[]);
    assert_eq!(answer["live"]["items"][0]["tool"], "Agent");
    assert_eq!(answer["live"]["items"][0]["target"], "Explore");
    for id in ["a53f90af8f9d0a1b5", "agent-a53f90af8f9d0a1b5"] {
        let answer = window_json(&sandbox, &["--session", id]);
        assert_eq!(answer["requests"].as_array().unwrap().len(), 2, "{answer}");
        assert_eq!(answer["live"]["items"][0]["target"], "**/*.ts");
    }
}

#[test]
fn the_captured_client_s_transcript_reads_as_its_requests() {
    let sandbox = Sandbox::new();
    let path = fixture_path_of("2.1.332", "transcript-main.jsonl");
    let answer = window_json(&sandbox, &["--transcript", &native(&path)]);
    assert_eq!(answer["model"], "claude-sonnet-4-5");
    assert_eq!(answer["requests"].as_array().unwrap().len(), 3);
    assert_eq!(answer["live"]["baseline"], 20_000);
}

#[test]
fn bad_arguments_and_missing_transcripts_say_what_to_do() {
    let sandbox = Sandbox::new();
    let out = sandbox.run(&["window", "--top", "many"], b"");
    assert_eq!(out.code, Some(2), "{out:?}");
    assert!(out.stderr.contains("--top \"many\": give a count"), "{out:?}");
    let out = sandbox.run(&["window", "--session", "../../etc/passwd"], b"");
    assert_eq!(out.code, Some(2), "{out:?}");
    let out = sandbox.run(&["window"], b"");
    assert_eq!(out.code, Some(1), "{out:?}");
    assert!(out.stderr.contains("no transcript found"), "{out:?}");
    // A transcript that is not one: nothing to show, and said so.
    sandbox.session_transcript(SESSION, "garbage\n\u{0}\u{1}\n{\"type\":7}\n");
    let out = sandbox.run(&["window"], b"");
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(out.stdout.contains("No request in this transcript yet."), "{out:?}");
    let answer = window_json(&sandbox, &[]);
    assert_eq!(
        answer["unreadable_lines"], 2,
        "the two lines that are not JSON: {answer}"
    );
    assert_eq!(answer["requests"], json!([]));
}

/// A generous bound, not a timing claim: ten times the transcript, at most a few MiB more.
#[cfg(target_os = "linux")]
#[test]
fn a_large_transcript_is_read_in_flat_memory() {
    fn measure(megabytes: usize) -> (Value, u64) {
        let sandbox = Sandbox::new();
        let mut session = Session::new(&sandbox);
        session.prompt("go");
        let mut context = 20_000;
        while session.lines.iter().map(String::len).sum::<usize>() < megabytes << 20 {
            session
                .reply(context, Some(("Bash", json!({"command":"cat big.log"}))))
                .result(50_000);
            context = 20_000 + (context + 500) % 150_000;
        }
        session.write(&sandbox, SESSION);
        let (out, kib) = crate::common::os::run_measuring_memory(sandbox.command(&["window", "--json"]), b"");
        (serde_json::from_str(&out).unwrap(), kib)
    }
    let (small, small_kib) = measure(10);
    let (large, large_kib) = measure(100);
    assert!(large["requests"].as_array().unwrap().len() > 9 * small["requests"].as_array().unwrap().len());
    eprintln!("peak RSS: 10 MB transcript {small_kib} KiB, 100 MB transcript {large_kib} KiB");
    assert!(large_kib < small_kib + 16 * 1024, "{small_kib} KiB → {large_kib} KiB");
}

#[test]
fn the_chart_is_written_as_a_standalone_svg() {
    let sandbox = Sandbox::new();
    let mut session = a_working_session(&sandbox);
    session
        .reply(64_000, Some(("Bash", json!({"command":"grep '<main>' a && b"}))))
        .result(9_000)
        .reply(66_500, None);
    session.write(&sandbox, SESSION);
    let svg = sandbox.project.join("context.svg");
    let out = sandbox.run(&["window", "--svg", &native(&svg)], b"");
    assert_eq!((out.code, out.stderr.as_str()), (Some(0), ""), "{out:?}");
    assert!(
        out.stdout.contains("Largest in the live context"),
        "the text view is printed too: {out:?}"
    );
    let drawn = std::fs::read_to_string(&svg).unwrap();
    assert!(
        drawn.starts_with("<svg") && drawn.trim_end().ends_with("</svg>"),
        "{drawn}"
    );
    assert!(
        drawn.contains("Read src/billing/ledger_dump.sql"),
        "the largest items are named"
    );
    assert!(
        drawn.contains("Bash grep &apos;&lt;main&gt;&apos; a &amp;&amp; b"),
        "text is escaped"
    );
    assert!(drawn.contains("compacts at 180k"), "the limit is marked");
    let out = sandbox.run(
        &["window", "--svg", &native(sandbox.project.join("no/such/dir/c.svg"))],
        b"",
    );
    assert_eq!(out.code, Some(1), "{out:?}");
    assert!(out.stderr.contains("cannot write"), "{out:?}");
}

/// The monitor's warning at `session`'s transcript, from the hook as Claude Code runs it.
fn warning(sandbox: &Sandbox, transcript: &std::path::Path) -> Option<String> {
    let out = sandbox.hook(&post_tool_use(sandbox, SESSION, Some(transcript)));
    assert_eq!(out.stderr, "", "{out:?}");
    out.context()
}

#[test]
fn the_monitor_s_warning_names_the_largest_items_and_follows_the_session() {
    let sandbox = Sandbox::new();
    let cwd = native(std::fs::canonicalize(&sandbox.project).unwrap());
    let mut session = a_working_session(&sandbox);
    session
        .reply(
            64_000,
            Some(("Read", json!({"file_path": format!("{cwd}/docs/spec.md")}))),
        )
        .result(300_000)
        .reply(141_000, None);
    let transcript = session.write(&sandbox, SESSION);
    let text = warning(&sandbox, &transcript).expect("70% used warns");
    assert!(text.starts_with("CONTEXT WARNING: "), "{text}");
    assert!(
        text.contains("Largest in context: Read docs/spec.md 7"),
        "the Read of 77k comes first: {text}"
    );
    assert!(
        text.contains(", Read src/billing/ledger_dump.sql 3") && text.contains(", Bash npm test 1"),
        "{text}"
    );
    let state = sandbox
        .tmp
        .join(&os::private_dir_names()[0])
        .join(format!("session-{SESSION}-fills.bin"));
    assert!(state.is_file(), "the walk is kept for the next warning");

    // The session goes on: only what was appended is read, and the new result leads.
    session
        .reply(142_000, Some(("Bash", json!({"command":"cargo test"}))))
        .result(240_000)
        .reply(172_000, None);
    session.write(&sandbox, SESSION);
    let texts: Vec<String> = (0..6).filter_map(|_| warning(&sandbox, &transcript)).collect();
    let last = texts.last().expect("a warning within the debounce");
    assert!(last.contains("Largest in context: Read docs/spec.md 7"), "{last}");
    assert!(
        last.contains("Bash cargo test 3"),
        "the new result is counted once: {last}"
    );
    // A state planted as a link is replaced, never written through.
    #[cfg(unix)]
    {
        let elsewhere = sandbox.project.join("elsewhere.json");
        std::fs::write(&elsewhere, "mine").unwrap();
        std::fs::remove_file(&state).unwrap();
        std::os::unix::fs::symlink(&elsewhere, &state).unwrap();
        session.prompt("again").reply(172_500, None);
        session.write(&sandbox, SESSION);
        assert!((0..6).filter_map(|_| warning(&sandbox, &transcript)).count() > 0);
        assert_eq!(std::fs::read_to_string(&elsewhere).unwrap(), "mine");
        assert!(!std::fs::symlink_metadata(&state).unwrap().file_type().is_symlink());
    }
}

#[test]
fn a_first_look_inside_an_older_client_s_transcript_leaves_its_subagents_lines_out() {
    let sandbox = Sandbox::new();
    let cwd = native(std::fs::canonicalize(&sandbox.project).unwrap());
    let mut session = Session::new(&sandbox);
    session
        .prompt("go")
        .reply(20_000, Some(("Read", json!({"file_path": format!("{cwd}/huge.log")}))))
        .result(4_500_000);
    // An older client wrote its subagents' lines into the main transcript, marked side-chain:
    // the first look reads the last 4 MB only, and they come first there.
    session
        .line(json!({"isSidechain":true,"type":"assistant","requestId":"req_side_1",
            "message":{"id":"side_1","model":"claude-haiku-4-5","content":[{"type":"tool_use",
            "id":"toolu_side","name":"Grep","input":{"pattern":"secret"}}],
            "usage":{"input_tokens":90_000}}}))
        .line(
            json!({"isSidechain":true,"type":"user","message":{"role":"user","content":[
            {"type":"tool_result","tool_use_id":"toolu_side","content":"s".repeat(200_000)}]}}),
        )
        .line(json!({"isSidechain":true,"type":"assistant","requestId":"req_side_2",
            "message":{"id":"side_2","model":"claude-haiku-4-5","content":[{"type":"text","text":"done"}],
            "usage":{"input_tokens":95_000}}}));
    session
        .reply(130_000, Some(("Bash", json!({"command":"npm test"}))))
        .result(50_000)
        .reply(141_000, None);
    let transcript = session.write(&sandbox, SESSION);
    let text = warning(&sandbox, &transcript).expect("70% used warns");
    assert!(text.contains("Largest in context: Bash npm test 1"), "{text}");
    assert!(
        !text.contains("Grep"),
        "a subagent's result is not in the main context: {text}"
    );
}

#[test]
fn a_walk_saved_by_an_older_baton_is_read_afresh() {
    let sandbox = Sandbox::new().env("NO_COLOR", "1").env("COLUMNS", "120");
    let transcript = a_working_session(&sandbox).write(&sandbox, SESSION);
    assert!(statusline_with_largest(&sandbox, &transcript).ends_with("│ Read ledger_dump.sql 32k"));
    // The walk as the first version saved it, with a name it no longer gives.
    let state = sandbox
        .tmp
        .join(&os::private_dir_names()[0])
        .join(format!("session-{SESSION}-fills.bin"));
    // The state as an older version saved it, with a name it no longer gives.
    let saved = std::fs::read(&state).unwrap();
    let older = |version: u8| {
        let mut bytes = saved.clone();
        let at = bytes
            .windows(15)
            .position(|w| w == b"ledger_dump.sql")
            .expect("the name is saved");
        bytes[at..at + 15].copy_from_slice(b"ledger\x1b[2Jxx.sq");
        bytes[0] = version;
        std::fs::write(&state, bytes).unwrap();
    };
    older(4);
    let shown = statusline_with_largest(&sandbox, &transcript);
    assert!(shown.ends_with("│ Read ledger_dump.sql 32k"), "{shown}");
    // The first version saved it as JSON.
    std::fs::write(&state, r#"{"version":1,"walk":{"live":[]}}"#).unwrap();
    let shown = statusline_with_largest(&sandbox, &transcript);
    assert!(shown.ends_with("│ Read ledger_dump.sql 32k"), "{shown}");
}

#[test]
fn the_statusline_s_largest_segment_names_the_biggest_item_by_its_file() {
    let sandbox = Sandbox::new().env("NO_COLOR", "1").env("COLUMNS", "120");
    let transcript = a_working_session(&sandbox).write(&sandbox, SESSION);
    let mut payload = sandbox.statusline_payload_in_project(fixture_of("2.1.332", "statusline-after-reply-cache.json"));
    payload["session_id"] = json!(SESSION);
    payload["transcript_path"] = json!(native(&transcript));
    assert!(
        !plain(&sandbox.statusline(&payload).assert_one_line()).contains("ledger"),
        "opt-in: not in the default line"
    );
    let shown = statusline_with_largest(&sandbox, &transcript);
    assert!(shown.ends_with("│ Read ledger_dump.sql 32k"), "{shown}");
    // A narrow terminal drops it first.
    let narrow = Sandbox::new().env("NO_COLOR", "1").env("COLUMNS", "30");
    assert!(!statusline_with_largest(&narrow, &transcript).contains("ledger"));
}

/// The statusline of `sandbox` for `SESSION` at `transcript`, as the 2.1.332 client sends it,
/// with `largest` among its segments.
fn statusline_with_largest(sandbox: &Sandbox, transcript: &std::path::Path) -> String {
    sandbox.write(
        ".baton/config.json",
        r#"{"statusline":{"segments":["model","context","largest"]}}"#,
    );
    let mut payload = sandbox.statusline_payload_in_project(fixture_of("2.1.332", "statusline-after-reply-cache.json"));
    payload["session_id"] = json!(SESSION);
    payload["transcript_path"] = json!(native(transcript));
    plain(&sandbox.statusline(&payload).assert_one_line())
}

#[test]
fn the_session_report_carries_the_largest_items_and_the_chart() {
    let sandbox = Sandbox::new();
    let mut session = a_working_session(&sandbox);
    session
        .reply(64_000, Some(("Bash", json!({"command":"cat a|b"}))))
        .result(9_000)
        .reply(66_500, None);
    session.write(&sandbox, SESSION);
    let out = sandbox.run(&["report"], b"");
    assert_eq!((out.code, out.stderr.as_str()), (Some(0), ""), "{out:?}");
    let path = host_path(out.stdout.trim());
    let markdown = std::fs::read_to_string(&path).unwrap();
    let section = markdown.split("## What fills the context\n").nth(1).expect(&markdown);
    assert!(
        section.contains("Live context at the end: 66,500 tokens of a 200,000 window (baseline 20,000"),
        "{section}"
    );
    assert!(section.contains("| Read src/billing/ledger_dump.sql | 3"), "{section}");
    assert!(
        section.contains("| Bash cat a\\|b |"),
        "a | in a name is escaped: {section}"
    );
    let chart = path.with_file_name("SESSION_REPORT-context.svg");
    assert!(
        section.contains("![The context after each request](SESSION_REPORT-context.svg)"),
        "{section}"
    );
    assert!(std::fs::read_to_string(&chart).unwrap().starts_with("<svg"));
    let json = sandbox.run(&["report", "--json"], b"");
    let report: Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(report["context"]["tokens"], 66_500);
    assert_eq!(report["context"]["largest"][0]["target"], "src/billing/ledger_dump.sql");
    assert!(
        report["context"].get("timeline").is_none(),
        "the requests stay out of the report's JSON"
    );
}

#[test]
fn a_report_written_with_out_keeps_a_users_file_where_its_chart_would_go() {
    let sandbox = Sandbox::new();
    a_working_session(&sandbox).write(&sandbox, SESSION);
    let out = sandbox.project.join("notes.md");
    let users = sandbox.project.join("notes-context.svg");
    std::fs::write(&users, "<svg>the user's own drawing</svg>").unwrap();
    let write = || {
        let run = sandbox.run(&["report", "--out", &native(&out)], b"");
        assert_eq!((run.code, run.stderr.as_str()), (Some(0), ""), "{run:?}");
        std::fs::read_to_string(&out).unwrap()
    };
    let markdown = write();
    assert_eq!(
        std::fs::read_to_string(&users).unwrap(),
        "<svg>the user's own drawing</svg>"
    );
    let chart = sandbox.project.join("notes-context-2.svg");
    assert!(std::fs::read_to_string(&chart).unwrap().starts_with("<svg"));
    assert!(markdown.contains("](notes-context-2.svg)"), "{markdown}");
    // Written again, the report replaces its own chart and still leaves the user's file.
    std::fs::write(
        &chart,
        std::fs::read_to_string(&chart)
            .unwrap()
            .replace("Live context", "Old context"),
    )
    .unwrap();
    assert!(write().contains("](notes-context-2.svg)"));
    assert!(!std::fs::read_to_string(&chart).unwrap().contains("Old context"));
    assert!(!sandbox.project.join("notes-context-3.svg").exists());
    assert_eq!(
        std::fs::read_to_string(&users).unwrap(),
        "<svg>the user's own drawing</svg>"
    );
}
