//! The context monitor through the built binary: thresholds, debounce, escalation, the
//! bridge file and the transcript's tail (which of them counts when one lags: `context/lag.rs`),
//! opt-outs, GSD projects, the compact reset.

use serde_json::json;

use crate::common::*;

const SESSION: &str = "2ce07739-e512-40fe-b9e8-343880ca9de9";

/// Runs the monitor once for `SESSION` with a fresh bridge at `remaining`%.
fn warn_at(sandbox: &Sandbox, remaining: u32) -> Option<String> {
    sandbox.bridge(SESSION, remaining, 0);
    sandbox.hook(&post_tool_use(sandbox, SESSION, None)).context()
}

#[test]
fn thresholds_at_36_35_26_25_remaining() {
    for (remaining, expected) in [
        (36, None),
        (35, Some("WARNING")),
        (26, Some("WARNING")),
        (25, Some("CRITICAL")),
    ] {
        let sandbox = Sandbox::new();
        let context = warn_at(&sandbox, remaining);
        match expected {
            None => assert_eq!(context, None, "{remaining}% remaining"),
            Some(level) => {
                let text = context.unwrap_or_else(|| panic!("no warning at {remaining}% remaining"));
                let prefix = format!(
                    "CONTEXT {level}: Usage at {}%. Remaining: {remaining}%.",
                    100 - remaining
                );
                assert!(text.starts_with(&prefix), "{text}");
            }
        }
    }
}

#[test]
fn debounce_fires_at_calls_1_6_and_11_of_12() {
    let sandbox = Sandbox::new();
    let fired: Vec<usize> = (1..=12).filter(|_| warn_at(&sandbox, 30).is_some()).collect();
    assert_eq!(fired, vec![1, 6, 11]);
    let state = sandbox.read_json(&sandbox.debounce_file(SESSION));
    assert_eq!(state["callsSinceWarn"], 1);
    assert_eq!(state["lastLevel"], "warning");
}

#[test]
fn escalation_to_critical_bypasses_the_debounce() {
    let sandbox = Sandbox::new();
    assert!(warn_at(&sandbox, 30).unwrap().starts_with("CONTEXT WARNING"));
    assert_eq!(warn_at(&sandbox, 30), None);
    let text = warn_at(&sandbox, 24).expect("escalation fires at once");
    assert!(
        text.starts_with("CONTEXT CRITICAL: Usage at 76%. Remaining: 24%."),
        "{text}"
    );
    // Critical is debounced from then on.
    assert_eq!(warn_at(&sandbox, 23), None);
}

#[test]
fn without_a_bridge_file_the_transcript_tail_gives_the_figure() {
    // Headless `claude -p`: no statusline runs, so no bridge file exists.
    let sandbox = Sandbox::new();
    let transcript = sandbox.transcript("t", "claude-sonnet-4-5", 140_000);
    let text = sandbox
        .hook(&post_tool_use(&sandbox, SESSION, Some(&transcript)))
        .context()
        .unwrap();
    assert!(
        text.starts_with("CONTEXT WARNING: Usage at 70%. Remaining: 30%."),
        "{text}"
    );
    assert!(text.contains("140k of 200k tokens"), "{text}");
}

#[test]
fn the_real_clients_transcript_gives_the_figure() {
    let sandbox = Sandbox::new();
    let payload = post_tool_use(
        &sandbox,
        SESSION,
        Some(&fixture_path("transcript-headless-3-tools.jsonl")),
    );
    let text = sandbox.hook(&payload).context().unwrap();
    assert!(
        text.starts_with("CONTEXT CRITICAL: Usage at 75%. Remaining: 25%."),
        "{text}"
    );
}

#[test]
fn a_stale_bridge_is_ignored_in_favour_of_the_transcript() {
    let sandbox = Sandbox::new();
    sandbox.bridge(SESSION, 80, 61);
    let transcript = sandbox.transcript("t", "claude-sonnet-4-5", 140_000);
    let text = sandbox
        .hook(&post_tool_use(&sandbox, SESSION, Some(&transcript)))
        .context()
        .unwrap();
    assert!(text.contains("Remaining: 30%."), "{text}");

    // Stale bridge and no transcript: nothing to go on, so nothing is said.
    let other = Sandbox::new();
    other.bridge(SESSION, 10, 120);
    assert_eq!(other.hook(&post_tool_use(&other, SESSION, None)).context(), None);
}

#[test]
fn a_stale_bridge_still_lends_its_window_size() {
    // A 1M-window session: 700k tokens is 30% remaining there, far over 100% of 200k.
    let sandbox = Sandbox::new();
    let stale = json!({"session_id": SESSION, "remaining_percentage": 90, "used_pct": 10,
                       "timestamp": now() - 600, "context_window_size": 1_000_000});
    std::fs::write(sandbox.temp_file(SESSION, ".json"), stale.to_string()).unwrap();
    let transcript = sandbox.transcript("t", "claude-opus-4-6", 700_000);
    let text = sandbox
        .hook(&post_tool_use(&sandbox, SESSION, Some(&transcript)))
        .context()
        .unwrap();
    assert!(
        text.contains("Usage at 70%. Remaining: 30%.") && text.contains("700k of 1M"),
        "{text}"
    );
}

#[test]
fn gsd_projects_get_planning_advice_found_from_a_subdirectory() {
    let plain_project = Sandbox::new();
    let plain_text = warn_at(&plain_project, 30).unwrap();
    assert!(!plain_text.contains("pause"), "{plain_text}");

    let gsd = Sandbox::new();
    gsd.with_planning_state();
    let deep = gsd.project.join("src/api");
    std::fs::create_dir_all(&deep).unwrap();
    gsd.bridge(SESSION, 30, 0);
    let mut payload = post_tool_use(&gsd, SESSION, None);
    payload["cwd"] = json!(deep);
    let text = gsd.hook(&payload).context().unwrap();
    assert!(
        text.starts_with("CONTEXT WARNING: Usage at 70%. Remaining: 30%."),
        "{text}"
    );
    assert!(text.contains("pause") && text != plain_text, "{text}");

    gsd.bridge(SESSION, 20, 0);
    let critical = gsd.hook(&payload).context().unwrap();
    assert!(critical.contains(".planning/STATE.md"), "{critical}");
    // The slash command as both GSDs route it: gsd-core no longer routes the colon form.
    // baton by the path the hook runs from: `baton` need not be on the agent's PATH.
    let pause = format!("/gsd-pause-work or `{} pause`", wired(baton_bin()));
    for said in [&text, &critical] {
        assert!(said.contains(&pause), "{said}");
        assert!(!said.contains("/gsd:"), "{said}");
    }
}

#[test]
fn warnings_stay_advisory() {
    for planning in [false, true] {
        for remaining in [30, 20] {
            let sandbox = Sandbox::new();
            if planning {
                sandbox.with_planning_state();
            }
            let text = warn_at(&sandbox, remaining).unwrap();
            for word in ["STOP", "NOW", "immediately", "must ", "Do NOT", "save state"] {
                assert!(!text.contains(word), "{word:?} in: {text}");
            }
        }
    }
}

#[test]
fn gsd_config_switches_warnings_off() {
    let sandbox = Sandbox::new();
    sandbox.write(
        ".planning/config.json",
        r#"{"model_profile":"balanced","hooks":{"context_warnings":false}}"#,
    );
    assert_eq!(warn_at(&sandbox, 10), None);
    sandbox.write(".planning/config.json", r#"{"hooks":{"context_warnings":true}}"#);
    assert!(warn_at(&sandbox, 10).is_some());
}

#[test]
fn batons_config_switches_off_and_tunes_the_monitor() {
    let sandbox = Sandbox::new();
    sandbox.write(".baton/config.json", r#"{"monitor":{"enabled":false}}"#);
    assert_eq!(warn_at(&sandbox, 10), None);

    // User config: thresholds and debounce.
    let tuned = Sandbox::new();
    let config = tuned.home.join(".config/baton/config.json");
    std::fs::create_dir_all(config.parent().unwrap()).unwrap();
    std::fs::write(
        &config,
        r#"{"monitor":{"warning_remaining":50,"critical_remaining":40,"debounce_calls":2}}"#,
    )
    .unwrap();
    let text = warn_at(&tuned, 45).unwrap();
    assert!(
        text.starts_with("CONTEXT WARNING: Usage at 55%. Remaining: 45%."),
        "{text}"
    );
    assert_eq!(warn_at(&tuned, 45), None);
    assert!(warn_at(&tuned, 45).is_some(), "debounce of 2 fires every second call");
    assert!(warn_at(&tuned, 40).unwrap().starts_with("CONTEXT CRITICAL"));
}

#[test]
fn compact_and_clear_reset_the_debounce_but_startup_does_not() {
    for (source, resets) in [
        ("compact", true),
        ("clear", true),
        ("startup", false),
        ("resume", false),
    ] {
        let sandbox = Sandbox::new();
        assert!(warn_at(&sandbox, 30).is_some());
        assert_eq!(warn_at(&sandbox, 30), None);
        let start = sandbox.hook(&session_start(&sandbox, SESSION, source));
        start.assert_hook_contract();
        assert_eq!(
            start.stdout, "",
            "SessionStart says nothing when there is nothing to resume"
        );
        assert_eq!(warn_at(&sandbox, 30).is_some(), resets, "after SessionStart {source}");
    }
}

#[test]
fn compaction_drops_the_old_bridge_figures() {
    let sandbox = Sandbox::new();
    sandbox.bridge(SESSION, 20, 0);
    sandbox
        .hook(&session_start(&sandbox, SESSION, "compact"))
        .assert_hook_contract();
    assert!(!sandbox.temp_file(SESSION, ".json").exists());
    // The transcript now ends in a compact boundary: 6k tokens, nothing to warn about.
    let transcript = sandbox.project.join("t.jsonl");
    let boundary = json!({"type":"system","subtype":"compact_boundary",
                          "compactMetadata":{"trigger":"auto","preTokens":166909,"postTokens":6060}});
    let lines = transcript_lines("claude-sonnet-4-5", 170_000) + &boundary.to_string() + "\n";
    std::fs::write(&transcript, lines).unwrap();
    assert_eq!(
        sandbox
            .hook(&post_tool_use(&sandbox, SESSION, Some(&transcript)))
            .context(),
        None
    );
}

#[test]
fn going_back_above_the_threshold_rearms_the_first_warning() {
    let sandbox = Sandbox::new();
    assert!(warn_at(&sandbox, 30).is_some());
    assert_eq!(warn_at(&sandbox, 30), None);
    assert_eq!(warn_at(&sandbox, 60), None);
    assert!(warn_at(&sandbox, 30).is_some(), "a new crossing warns at once");
}

#[test]
fn other_events_say_nothing() {
    let sandbox = Sandbox::new();
    sandbox.bridge(SESSION, 10, 0);
    for event in [
        "PreToolUse",
        "Stop",
        "SubagentStop",
        "PreCompact",
        "PostCompact",
        "UserPromptSubmit",
        "SessionEnd",
        "Bogus",
    ] {
        let mut payload = post_tool_use(&sandbox, SESSION, None);
        payload["hook_event_name"] = json!(event);
        let out = sandbox.hook(&payload);
        out.assert_hook_contract();
        assert_eq!(out.stdout, "", "{event}");
    }
}

#[test]
fn debounce_state_is_in_gsds_format_and_private() {
    let sandbox = Sandbox::new();
    assert!(warn_at(&sandbox, 30).is_some());
    // GSD's monitor's own record, wherever its count stands, does not move baton's.
    std::fs::write(
        sandbox.temp_file(SESSION, "-warned.json"),
        r#"{"callsSinceWarn":4,"lastLevel":"warning"}"#,
    )
    .unwrap();
    let quiet: Vec<bool> = (2..=5).map(|_| warn_at(&sandbox, 30).is_none()).collect();
    assert_eq!(quiet, [true; 4]);
    assert!(warn_at(&sandbox, 30).is_some(), "the sixth call warns again");
    let path = sandbox.debounce_file(SESSION);
    let state = sandbox.read_json(&path);
    assert_eq!(
        (state["callsSinceWarn"].clone(), state["lastLevel"].clone()),
        (json!(0), json!("warning"))
    );
    os::assert_private(&path);
    // What GSD's monitor finds there now keeps it quiet (see tests/e2e/gsd_core/monitor.rs).
    assert_eq!(
        sandbox.read_json(&sandbox.temp_file(SESSION, "-warned.json"))["lastLevel"],
        "critical"
    );
}

#[test]
fn gsds_record_is_rewritten_only_when_it_is_not_batons_quiet_one_or_is_an_hour_old() {
    let sandbox = Sandbox::new();
    let record = sandbox.temp_file(SESSION, "-warned.json");
    let written = |path: &std::path::Path| std::fs::metadata(path).unwrap().modified().unwrap();
    let set_written = |path: &std::path::Path, ago: u64| {
        let file = std::fs::File::options().write(true).open(path).unwrap();
        file.set_modified(std::time::SystemTime::now() - std::time::Duration::from_secs(ago))
            .unwrap();
    };
    let is_quiet = |sandbox: &Sandbox| {
        let left = sandbox.read_json(&record);
        (left["callsSinceWarn"].clone(), left["lastLevel"].clone()) == (json!(0), json!("critical"))
    };
    assert!(warn_at(&sandbox, 30).is_some());
    assert!(is_quiet(&sandbox), "the first call leaves it");

    // baton's own record, ten minutes old: left as it is (no rewrite at every call).
    set_written(&record, 600);
    let before = written(&record);
    assert!(warn_at(&sandbox, 30).is_none(), "debounced");
    assert_eq!(written(&record), before, "not rewritten");

    // GSD's monitor counted in it since: set quiet again at once.
    std::fs::write(
        &record,
        r#"{"callsSinceWarn":1,"lastLevel":"critical","criticalRecorded":true}"#,
    )
    .unwrap();
    set_written(&record, 600);
    warn_at(&sandbox, 30);
    assert!(is_quiet(&sandbox), "GSD's count is replaced");
    assert!(
        written(&record) > std::time::SystemTime::now() - std::time::Duration::from_secs(60),
        "written now"
    );

    // An hour old: written again, so that the day-old sweep never finds it in a live session.
    set_written(&record, 3700);
    let old = written(&record);
    warn_at(&sandbox, 30);
    assert!(is_quiet(&sandbox));
    assert!(
        written(&record) > old + std::time::Duration::from_secs(3000),
        "rewritten"
    );
}

/// Project settings wiring GSD's monitor (as gsd-core's installer does) and baton's hooks on
/// `batons_events`.
fn wire_gsds_monitor_beside(sandbox: &Sandbox, batons_events: &[&str]) {
    let gsd =
        json!([{"hooks": [{"type": "command", "command": "node \"$HOME/.claude/hooks/gsd-context-monitor.js\""}]}]);
    let mut hooks = json!({"PostToolUse": gsd, "PreCompact": gsd, "Stop": gsd});
    for event in batons_events {
        let baton = json!({"hooks": [{"type": "command", "command": "baton hook"}]});
        match hooks[*event].as_array_mut() {
            Some(groups) => groups.insert(0, baton),
            None => hooks[*event] = json!([baton]),
        }
    }
    sandbox.write(".claude/settings.json", &json!({ "hooks": hooks }).to_string());
}

#[test]
fn session_start_leaves_gsds_record_quiet_before_the_first_call_when_both_monitors_are_wired() {
    // Claude Code runs a call's PostToolUse hooks side by side: at the first call GSD's monitor
    // may read its record before baton's hook has written it. SessionStart comes first.
    let sandbox = Sandbox::new();
    wire_gsds_monitor_beside(&sandbox, &["PostToolUse", "SessionStart"]);
    let record = sandbox.temp_file(SESSION, "-warned.json");
    for source in ["startup", "compact"] {
        // gsd-core's PreCompact deletes its record (and the bridge) before the compaction.
        let _ = std::fs::remove_file(&record);
        let out = sandbox.hook(&session_start(&sandbox, SESSION, source));
        out.assert_hook_contract();
        let left = sandbox.read_json(&record);
        assert_eq!(
            (
                left["callsSinceWarn"].clone(),
                left["lastLevel"].clone(),
                left["criticalRecorded"].clone()
            ),
            (json!(0), json!("critical"), json!(true)),
            "{source}: no bridge yet, and GSD's monitor will find its record"
        );
    }
    assert!(
        !sandbox.debounce_file(SESSION).exists(),
        "baton's own count is untouched"
    );
}

#[test]
fn session_start_leaves_gsds_monitor_alone_when_baton_would_not_speak_for_it() {
    let record = |sandbox: &Sandbox| sandbox.temp_file(SESSION, "-warned.json");
    let start = |sandbox: &Sandbox| {
        let out = sandbox.hook(&session_start(sandbox, SESSION, "startup"));
        out.assert_hook_contract();
    };
    // baton's monitor is not wired (only its SessionStart): GSD's monitor is the one that speaks.
    let only_session_start = Sandbox::new();
    wire_gsds_monitor_beside(&only_session_start, &["SessionStart"]);
    start(&only_session_start);
    assert!(!record(&only_session_start).exists(), "baton's monitor is not wired");
    // baton's monitor is switched off in its config.
    let off = Sandbox::new();
    wire_gsds_monitor_beside(&off, &["PostToolUse", "SessionStart"]);
    off.write(".baton/config.json", r#"{"monitor":{"enabled":false}}"#);
    start(&off);
    assert!(!record(&off).exists(), "baton's monitor is off");
    // No GSD monitor: no file of GSD's is made.
    let alone = Sandbox::new();
    alone.write(
        ".claude/settings.json",
        r#"{"hooks":{"PostToolUse":[{"hooks":[{"type":"command","command":"baton hook"}]}]}}"#,
    );
    start(&alone);
    assert!(!record(&alone).exists(), "GSD's monitor is not wired");
    // The baton plugin's hooks run with CLAUDE_PLUGIN_ROOT set; GSD's monitor in the user's settings.
    let plugin = Sandbox::new();
    let gsd = r#"{"hooks":{"PostToolUse":[{"hooks":[{"type":"command","command":"node gsd-context-monitor.js"}]}]}}"#;
    std::fs::create_dir_all(plugin.home.join(".claude")).unwrap();
    std::fs::write(plugin.home.join(".claude/settings.json"), gsd).unwrap();
    let root = native(&plugin.project);
    plugin
        .run_env(
            &["hook"],
            &session_start(&plugin, SESSION, "startup"),
            &[("CLAUDE_PLUGIN_ROOT", &root)],
        )
        .assert_hook_contract();
    assert_eq!(
        plugin.read_json(&record(&plugin))["lastLevel"],
        "critical",
        "the plugin wires baton's monitor"
    );
}

#[test]
fn waits_for_claude_code_to_write_the_reply_that_made_the_tool_call() {
    // Headless Claude Code can start PostToolUse before the reply line carrying the tool_use
    // reaches the transcript; the first warning must not be lost to that race.
    let sandbox = Sandbox::new();
    let transcript = sandbox.project.join("late.jsonl");
    std::fs::write(
        &transcript,
        "{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":\"run echo\"}}\n",
    )
    .unwrap();
    let late = transcript.clone();
    let writer = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(150));
        let mut f = std::fs::OpenOptions::new().append(true).open(&late).unwrap();
        use std::io::Write;
        writeln!(f, "{}", assistant_line("claude-sonnet-4-5", 140_000, false)).unwrap();
    });
    let out = sandbox.hook(&post_tool_use(&sandbox, SESSION, Some(&transcript)));
    writer.join().unwrap();
    let text = out.context_text();
    assert!(
        text.starts_with("CONTEXT WARNING: Usage at 70%. Remaining: 30%."),
        "{text}"
    );
}

const AGENT: &str = "a9f371828cb2429bb";

/// A PostToolUse payload from inside subagent `AGENT`: the parent's session and transcript,
/// plus `agent_id`/`agent_type` (as Claude Code 2.1.197 sends them).
fn subagent_post_tool_use(sandbox: &Sandbox) -> serde_json::Value {
    let parent = sandbox.session_transcript(SESSION, &transcript_lines("claude-sonnet-4-5", 20_000));
    let mut payload = post_tool_use(sandbox, SESSION, Some(&parent));
    payload["agent_id"] = json!(AGENT);
    payload["agent_type"] = json!("general-purpose");
    payload
}

#[test]
fn a_subagent_is_judged_by_its_own_transcript_not_the_parents_bridge() {
    let sandbox = Sandbox::new();
    sandbox.with_planning_state();
    let state_before = std::fs::read_to_string(sandbox.project.join(".planning/STATE.md")).unwrap();
    // The main agent is at 20% remaining; the subagent's own context is half full.
    sandbox.bridge(SESSION, 20, 0);
    let payload = subagent_post_tool_use(&sandbox);
    sandbox.subagent_transcript(SESSION, AGENT, &transcript_lines("claude-sonnet-4-5", 100_000));
    let out = sandbox.hook(&payload);
    assert_eq!(out.context(), None, "50% remaining in the subagent");
    assert!(out.elapsed < std::time::Duration::from_secs(5), "{:?}", out.elapsed);

    sandbox.subagent_transcript(SESSION, AGENT, &transcript_lines("claude-sonnet-4-5", 140_000));
    let out = sandbox.hook(&payload);
    let text = out.context_text();
    assert!(
        text.starts_with("CONTEXT WARNING: Usage at 70%. Remaining: 30%."),
        "{text}"
    );
    assert!(text.contains("orchestrator") && !text.contains("user"), "{text}");
    assert!(out.elapsed < std::time::Duration::from_secs(5), "{:?}", out.elapsed);

    // Its debounce is its own: the parent's next call still gets its first warning.
    assert!(sandbox.debounce_file(&format!("{SESSION}-agent-{AGENT}")).exists());
    assert!(!sandbox.debounce_file(SESSION).exists());
    assert_eq!(sandbox.hook(&payload).context(), None, "debounced");

    sandbox.subagent_transcript(SESSION, AGENT, &transcript_lines("claude-sonnet-4-5", 170_000));
    let critical = sandbox.hook(&payload).context_text();
    assert!(
        critical.starts_with("CONTEXT CRITICAL: Usage at 85%. Remaining: 15%."),
        "{critical}"
    );
    assert!(critical.contains("orchestrator"), "{critical}");
    assert_eq!(
        std::fs::read_to_string(sandbox.project.join(".planning/STATE.md")).unwrap(),
        state_before,
        "no STATE.md breadcrumb from a subagent"
    );
    let parent = sandbox.hook(&post_tool_use(&sandbox, SESSION, None)).context_text();
    assert!(
        parent.starts_with("CONTEXT CRITICAL: Usage at 80%. Remaining: 20%."),
        "{parent}"
    );
}

#[test]
fn a_subagent_call_missing_from_its_transcript_does_not_stall_the_hook() {
    let sandbox = Sandbox::new();
    let mut payload = subagent_post_tool_use(&sandbox);
    payload["tool_use_id"] = json!("toolu_never_written");
    sandbox.subagent_transcript(SESSION, AGENT, &transcript_lines("claude-sonnet-4-5", 140_000));
    let out = sandbox.hook(&payload);
    assert!(out.context_text().contains("Remaining: 30%."));
    assert!(out.elapsed < std::time::Duration::from_secs(5), "{:?}", out.elapsed);

    // No subagent transcript at all, or an unsafe agent id: nothing is said, the parent's
    // figures are not borrowed.
    let other = Sandbox::new();
    other.bridge(SESSION, 10, 0);
    let mut missing = subagent_post_tool_use(&other);
    assert_eq!(other.hook(&missing).context(), None);
    missing["agent_id"] = json!("../../etc");
    assert_eq!(other.hook(&missing).context(), None);
}

#[test]
fn more_tokens_than_200k_in_a_headless_session_means_a_1m_window() {
    // Recent Opus models default to 1M, and the transcript never says so: 250k tokens cannot
    // be 100% of a 200k window.
    let tuned = |sandbox: &Sandbox| {
        let config = sandbox.home.join(".config/baton/config.json");
        std::fs::create_dir_all(config.parent().unwrap()).unwrap();
        std::fs::write(
            &config,
            r#"{"monitor":{"warning_remaining":80,"critical_remaining":10}}"#,
        )
        .unwrap();
    };
    let sandbox = Sandbox::new();
    tuned(&sandbox);
    let transcript = sandbox.transcript("t", "claude-opus-4-6", 250_000);
    let text = sandbox
        .hook(&post_tool_use(&sandbox, SESSION, Some(&transcript)))
        .context_text();
    assert!(
        text.starts_with("CONTEXT WARNING: Usage at 25%. Remaining: 75%.") && text.contains("250k of 1M"),
        "{text}"
    );

    let disabled = Sandbox::new().env("CLAUDE_CODE_DISABLE_1M_CONTEXT", "1");
    tuned(&disabled);
    let transcript = disabled.transcript("t", "claude-opus-4-6", 250_000);
    let text = disabled
        .hook(&post_tool_use(&disabled, SESSION, Some(&transcript)))
        .context_text();
    assert!(
        text.starts_with("CONTEXT CRITICAL: Usage at 100%. Remaining: 0%."),
        "{text}"
    );
}

#[test]
fn a_projects_gsd_core_thresholds_are_honoured() {
    // gsd-core's per-project keys, as remaining percentages; the pair read as gsd-core reads it.
    for (config, expected) in [
        (
            r#"{"hooks":{"context_warning_threshold":50,"context_critical_threshold":40}}"#,
            [
                (51, None),
                (50, Some("WARNING")),
                (41, Some("WARNING")),
                (40, Some("CRITICAL")),
            ],
        ),
        // Critical not below warning: both fall back to the defaults.
        (
            r#"{"hooks":{"context_warning_threshold":20,"context_critical_threshold":30}}"#,
            [
                (36, None),
                (35, Some("WARNING")),
                (26, Some("WARNING")),
                (25, Some("CRITICAL")),
            ],
        ),
    ] {
        for (remaining, level) in expected {
            let sandbox = Sandbox::new();
            sandbox.write(".planning/config.json", config);
            let said = warn_at(&sandbox, remaining);
            match level {
                None => assert_eq!(said, None, "{config} at {remaining}%"),
                Some(level) => {
                    let text = said.unwrap_or_else(|| panic!("{config}: no warning at {remaining}%"));
                    assert!(
                        text.starts_with(&format!("CONTEXT {level}:")),
                        "{config} at {remaining}%: {text}"
                    );
                }
            }
        }
    }
}
