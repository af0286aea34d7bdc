//! The statusline through the built binary: the line, its percentage, colours, fitting,
//! segments, and the bridge file it writes for the monitor and for GSD.

use serde_json::{Value, json};

use crate::common::*;

const SESSION: &str = "4106d464-75bb-44ee-b810-e0e678a180ac";

fn after_reply(sandbox: &Sandbox) -> Value {
    sandbox.statusline_payload_in_project(fixture("statusline-after-reply.json"))
}

fn session_start(sandbox: &Sandbox) -> Value {
    let mut p = fixture("statusline-session-start.json");
    p["cwd"] = json!(native(&sandbox.project));
    p["workspace"]["current_dir"] = json!(native(&sandbox.project));
    p["transcript_path"] = json!(native(sandbox.project.join("missing.jsonl")));
    p
}

fn line(sandbox: &Sandbox, payload: &Value) -> String {
    plain(&sandbox.statusline(payload).assert_one_line())
}

#[test]
fn shows_model_dir_and_claude_codes_own_percentage() {
    let sandbox = Sandbox::new();
    // 150k of 200k: Claude Code's footer shows 83% for this payload (PROTOCOL.md §1).
    assert_eq!(
        line(&sandbox, &after_reply(&sandbox)),
        "Sonnet 4.5 │ proj │ ████████░░ 83%"
    );
}

#[test]
fn raw_percentage_is_a_config_switch() {
    let sandbox = Sandbox::new();
    sandbox.write(".baton/config.json", r#"{"statusline":{"percent":"raw"}}"#);
    assert!(line(&sandbox, &after_reply(&sandbox)).ends_with("███████░░░ 75%"));
}

#[test]
fn writes_a_bridge_file_gsd_can_read() {
    let sandbox = Sandbox::new();
    let before = now();
    sandbox.statusline(&after_reply(&sandbox)).assert_one_line();
    let path = sandbox.temp_file(SESSION, ".json");
    let bridge = sandbox.read_json(&path);
    assert_eq!(bridge["session_id"], SESSION);
    assert_eq!(bridge["remaining_percentage"], 25);
    assert_eq!(bridge["used_pct"], 75);
    let stamp = bridge["timestamp"].as_u64().unwrap();
    assert!(stamp >= before && stamp <= now(), "{stamp}");
    assert_eq!(bridge["context_window_size"], 200_000);
    assert_eq!(bridge["used_tokens"], 150_000);
    assert_eq!(bridge["model_id"], "claude-sonnet-4-5");
    assert_eq!(bridge["source"], "payload");
    os::assert_private(&path);

    // baton's own monitor reads it: 25% remaining is critical.
    let text = sandbox.hook(&post_tool_use(&sandbox, SESSION, None)).context().unwrap();
    assert!(
        text.starts_with("CONTEXT CRITICAL: Usage at 75%. Remaining: 25%."),
        "{text}"
    );
}

#[test]
fn session_start_without_usage_still_renders_and_writes_no_figures() {
    let sandbox = Sandbox::new();
    assert_eq!(
        line(&sandbox, &session_start(&sandbox)),
        "Sonnet 4.5 │ proj │ ░░░░░░░░░░ --"
    );
    assert!(!sandbox.temp_file(SESSION, ".json").exists());
}

#[test]
fn without_usage_in_the_payload_the_transcript_tail_gives_the_figure() {
    let sandbox = Sandbox::new();
    let mut p = session_start(&sandbox);
    p["transcript_path"] = json!(native(sandbox.transcript("t", "claude-sonnet-4-5", 150_000)));
    assert!(line(&sandbox, &p).ends_with("████████░░ 83%"));
    let bridge = sandbox.read_json(&sandbox.temp_file(SESSION, ".json"));
    assert_eq!(
        (bridge["remaining_percentage"].as_u64(), bridge["source"].as_str()),
        (Some(25), Some("transcript"))
    );

    // An old client that sends no context_window at all.
    let mut old = p.clone();
    old.as_object_mut().unwrap().remove("context_window");
    assert!(line(&sandbox, &old).ends_with("83%"));
}

#[test]
fn right_after_compaction_the_boundary_gives_the_figure() {
    let sandbox = Sandbox::new();
    let boundary = json!({"type":"system","subtype":"compact_boundary",
                          "compactMetadata":{"trigger":"manual","preTokens":170000,"postTokens":18000}});
    let transcript = sandbox.project.join("t.jsonl");
    std::fs::write(
        &transcript,
        transcript_lines("claude-sonnet-4-5", 170_000) + &boundary.to_string() + "\n",
    )
    .unwrap();
    let mut p = session_start(&sandbox);
    p["transcript_path"] = json!(native(&transcript));
    assert!(line(&sandbox, &p).ends_with("█░░░░░░░░░ 10%"), "18k of 180k usable");
    assert_eq!(
        sandbox.read_json(&sandbox.temp_file(SESSION, ".json"))["source"],
        "compact-boundary"
    );
}

#[test]
fn one_m_models_get_a_one_m_window() {
    let sandbox = Sandbox::new();
    let mut p = session_start(&sandbox);
    p["model"] = json!({"id": "claude-sonnet-4-5[1m]", "display_name": "Sonnet 4.5 (1M context)"});
    p["context_window"] = json!(null);
    p["transcript_path"] = json!(native(sandbox.transcript("t", "claude-sonnet-4-5", 490_000)));
    assert!(line(&sandbox, &p).ends_with("█████░░░░░ 50%"), "490k of 980k usable");
}

#[test]
fn colours_by_level_and_none_with_no_color() {
    let sandbox = Sandbox::new();
    let coloured = sandbox.statusline(&after_reply(&sandbox)).assert_one_line();
    assert!(coloured.contains("\x1b[31m████████░░ 83%"), "83% is red: {coloured:?}");
    let mut half = after_reply(&sandbox);
    half["context_window"]["current_usage"]["input_tokens"] = json!(90_000);
    assert!(
        sandbox.statusline(&half).assert_one_line().contains("\x1b[33m"),
        "50% is yellow"
    );

    let no_color = Sandbox::new().env("NO_COLOR", "1");
    let text = no_color.statusline(&after_reply(&no_color)).assert_one_line();
    assert!(!text.contains('\x1b'), "{text:?}");
}

#[test]
fn fits_columns_by_dropping_the_least_important_segments() {
    let sandbox = Sandbox::new().env("NO_COLOR", "1");
    std::fs::create_dir_all(sandbox.project.join(".git")).unwrap();
    std::fs::write(sandbox.project.join(".git/HEAD"), "ref: refs/heads/feature/login\n").unwrap();
    sandbox.with_planning_state();
    let payload = after_reply(&sandbox);
    let full = sandbox.statusline(&payload).assert_one_line();
    assert_eq!(
        full,
        "Sonnet 4.5 │ v1.2 Auth · Phase 3/8 API endpoints · executing │ proj (feature/login) │ ████████░░ 83%"
    );
    for columns in [90, 60, 40, 30, 20] {
        let narrow = Sandbox::new().env("NO_COLOR", "1").env("COLUMNS", &columns.to_string());
        std::fs::create_dir_all(narrow.project.join(".git")).unwrap();
        std::fs::write(narrow.project.join(".git/HEAD"), "ref: refs/heads/feature/login\n").unwrap();
        narrow.with_planning_state();
        let text = narrow.statusline(&after_reply(&narrow)).assert_one_line();
        assert!(text.chars().count() <= columns, "{columns}: {text}");
        assert!(text.ends_with("████████░░ 83%"), "the context bar always stays: {text}");
    }
    let narrow = Sandbox::new().env("NO_COLOR", "1").env("COLUMNS", "40");
    assert_eq!(
        narrow.statusline(&after_reply(&narrow)).assert_one_line(),
        "Sonnet 4.5 │ proj │ ████████░░ 83%"
    );
}

/// Writes Claude Code 2.1.x task files (TaskCreate/TaskUpdate) for `SESSION` under `config`:
/// `tasks/<session>/<n>.json`, in the shape observed on 2.1.197.
fn write_tasks(config: &std::path::Path, tasks: &[(&str, &str, &str)]) {
    let dir = config.join("tasks").join(SESSION);
    std::fs::create_dir_all(&dir).unwrap();
    for (n, (subject, active_form, status)) in tasks.iter().enumerate() {
        let id = (n + 1).to_string();
        let task = json!({"id": id, "subject": subject, "description": format!("{subject}, in detail"),
                          "activeForm": active_form, "status": status, "blocks": [], "blockedBy": []});
        std::fs::write(dir.join(format!("{id}.json")), task.to_string()).unwrap();
    }
}

/// Cells a plain line takes in a terminal (CJK and fullwidth forms take two).
fn cells(text: &str) -> usize {
    text.chars()
        .map(|c| match u32::from(c) {
            0x1100..=0x115F | 0x2E80..=0x303E | 0x3041..=0x33FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF => 2,
            0xAC00..=0xD7A3 | 0xF900..=0xFAFF | 0xFF00..=0xFF60 | 0xFFE0..=0xFFE6 | 0x1F300..=0x1FAFF => 2,
            _ => 1,
        })
        .sum()
}

#[test]
fn the_in_progress_task_is_the_middle_segment() {
    let sandbox = Sandbox::new();
    sandbox.with_planning_state();
    write_tasks(
        &sandbox.home.join(".claude"),
        &[
            ("Write tests", "Writing tests", "completed"),
            ("Fix the login bug", "Fixing the login bug", "in_progress"),
            ("Deploy", "Deploying", "pending"),
        ],
    );
    assert_eq!(
        line(&sandbox, &after_reply(&sandbox)),
        "Sonnet 4.5 │ Fixing the login bug │ proj │ ████████░░ 83%"
    );

    // $CLAUDE_CONFIG_DIR moves Claude Code's files, tasks included.
    let moved = Sandbox::new();
    let config = moved.home.join("claude-config");
    let moved = moved.env("CLAUDE_CONFIG_DIR", config.to_str().unwrap());
    write_tasks(&config, &[("Fix the login bug", "", "in_progress")]);
    write_tasks(
        &moved.home.join(".claude"),
        &[("Not this one", "Not this one", "in_progress")],
    );
    assert_eq!(
        line(&moved, &after_reply(&moved)),
        "Sonnet 4.5 │ Fix the login bug │ proj │ ████████░░ 83%",
        "the subject when there is no activeForm"
    );
}

#[test]
fn the_legacy_todo_list_still_gives_the_task() {
    let sandbox = Sandbox::new();
    sandbox.with_planning_state();
    let todos = sandbox.home.join(".claude/todos");
    std::fs::create_dir_all(&todos).unwrap();
    std::fs::write(
        todos.join(format!("{SESSION}-agent-{SESSION}.json")),
        r#"[{"content":"Write tests","status":"completed","activeForm":"Writing tests"},
            {"content":"Fix the login bug","status":"in_progress","activeForm":"Fixing the login bug"}]"#,
    )
    .unwrap();
    assert_eq!(
        line(&sandbox, &after_reply(&sandbox)),
        "Sonnet 4.5 │ Fixing the login bug │ proj │ ████████░░ 83%"
    );
    // Task files, when there are some, are the current format.
    write_tasks(
        &sandbox.home.join(".claude"),
        &[("Ship it", "Shipping it", "in_progress")],
    );
    assert_eq!(
        line(&sandbox, &after_reply(&sandbox)),
        "Sonnet 4.5 │ Shipping it │ proj │ ████████░░ 83%"
    );
}

#[test]
fn wide_characters_fit_by_terminal_cells() {
    for columns in [50, 60] {
        let sandbox = Sandbox::new().env("NO_COLOR", "1").env("COLUMNS", &columns.to_string());
        write_tasks(
            &sandbox.home.join(".claude"),
            &[(
                "修复登录页面的会话过期错误",
                "正在修复登录页面的会话过期错误并补充回归测试",
                "in_progress",
            )],
        );
        let text = sandbox.statusline(&after_reply(&sandbox)).assert_one_line();
        assert!(cells(&text) <= columns, "{columns}: {} cells: {text}", cells(&text));
        assert!(text.contains("正在修复"), "the task is shortened, not dropped: {text}");
        assert!(text.ends_with("████████░░ 83%"), "{text}");
    }
}

#[test]
fn bidi_controls_in_a_task_cannot_reorder_the_line() {
    let sandbox = Sandbox::new().env("NO_COLOR", "1");
    write_tasks(
        &sandbox.home.join(".claude"),
        &[(
            "x",
            "Fixing \u{202E}gub nigol\u{202C} the \u{2067}bug\u{2069}\u{200F}\n",
            "in_progress",
        )],
    );
    let text = sandbox.statusline(&after_reply(&sandbox)).assert_one_line();
    assert_eq!(text, "Sonnet 4.5 │ Fixing gub nigol the bug │ proj │ ████████░░ 83%");
}

#[test]
fn gsd_segment_uses_the_progress_definition() {
    let sandbox = Sandbox::new().env("NO_COLOR", "1");
    crate::common::gsd::write_project(&sandbox);
    // Milestone v1.1: phases 3, 3.1, 4, 5 with 1 of 3 plans of phase 3 done = 8%.
    assert_eq!(
        sandbox.statusline(&after_reply(&sandbox)).assert_one_line(),
        "Sonnet 4.5 │ v1.1 Checkout 8% · Phase 3/6 Cart · executing │ proj │ ████████░░ 83%"
    );
    let progress: Value = serde_json::from_str(&sandbox.run(&["progress", "--json"], b"").stdout).unwrap();
    assert_eq!(
        progress["milestone_progress"]["percent"], 8,
        "the same figure as `baton progress`"
    );
}

#[test]
fn gsd_state_without_frontmatter_still_shows() {
    let sandbox = Sandbox::new();
    sandbox.write(
        ".planning/STATE.md",
        "# Project State\r\n\r\nPhase: 2.1 of 5 (Hotfix)\r\nStatus: Ready to plan\r\n",
    );
    assert_eq!(
        line(&sandbox, &after_reply(&sandbox)),
        "Sonnet 4.5 │ Phase 2.1/5 Hotfix · Ready to plan │ proj │ ████████░░ 83%"
    );
}

#[test]
fn null_and_missing_fields_never_blank_the_line() {
    let sandbox = Sandbox::new();
    for payload in [
        json!({}),
        json!({"model": null, "workspace": null, "context_window": null, "session_id": null}),
        json!({"model": {"id": "claude-opus-4-5"}, "context_window": {"current_usage": {"input_tokens": "many"}}}),
        json!({"model": 5, "cwd": 7, "context_window": {"used_percentage": 40, "context_window_size": null}}),
    ] {
        let out = sandbox.statusline(&payload).assert_one_line();
        assert!(plain(&out).contains("│"), "{out}");
    }
    let line = line(
        &sandbox,
        &json!({"model": {"id": "claude-opus-4-5"}, "context_window": {"used_percentage": 40}}),
    );
    assert!(line.starts_with("claude-opus-4-5 │") && line.ends_with("44%"), "{line}");
}
