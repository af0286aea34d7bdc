//! The hooks that carry the brief across /clear and compaction: SessionStart's brief,
//! PreCompact's breadcrumb, and the note at the monitor's first CRITICAL.

use serde_json::{Value, json};

use super::{ok, project, read, session_start_context};
use crate::common::gsd::STATE_MD;
use crate::common::*;

#[test]
fn session_start_injects_the_brief_for_every_source() {
    let sandbox = project();
    assert_eq!(
        session_start_context(&sandbox, "startup"),
        None,
        "nothing paused, nothing said"
    );
    ok(&sandbox.run(
        &[
            "pause",
            "--blocker",
            "human_action: need the API key",
            "--human-action",
            "Create the API key",
        ],
        b"",
    ));
    for source in ["startup", "resume", "clear", "compact"] {
        let text = session_start_context(&sandbox, source).unwrap_or_else(|| panic!("no brief at {source}"));
        let blocker = text.find("need the API key").unwrap();
        let action = text.find("Create the API key (blocking)").unwrap();
        let position = text.find("Position:").unwrap();
        assert!(blocker < position && action < position, "{text}");
    }
    assert!(
        sandbox.project.join(".planning/HANDOFF.json").exists(),
        "a person's handoff waits for `baton resume`"
    );
}

#[test]
fn pre_compact_leaves_a_breadcrumb_that_the_next_session_start_delivers_once() {
    let sandbox = project();
    let mut pre = session_start(&sandbox, "s-1", "compact");
    pre["hook_event_name"] = json!("PreCompact");
    pre["trigger"] = json!("auto");
    let out = sandbox.hook(&pre);
    out.assert_hook_contract();
    assert_eq!(out.stdout, "");
    let h: Value = serde_json::from_str(&read(&sandbox, ".planning/HANDOFF.json")).unwrap();
    assert_eq!(h["trigger"], "pre-compact");
    assert!(
        !read(&sandbox, ".planning/STATE.md").contains("paused_at:"),
        "a breadcrumb is not a pause"
    );

    let text = session_start_context(&sandbox, "compact").expect("the breadcrumb is delivered after compaction");
    assert!(text.contains("Position: Phase 3 (Cart), plan 03-02"), "{text}");
    assert!(
        !sandbox.project.join(".planning/HANDOFF.json").exists(),
        "delivered once, then archived"
    );
    assert_eq!(session_start_context(&sandbox, "startup"), None);

    // A person's handoff is never overwritten by a breadcrumb.
    ok(&sandbox.run(&["pause", "--note", "mine"], b""));
    sandbox.hook(&pre).assert_hook_contract();
    let h: Value = serde_json::from_str(&read(&sandbox, ".planning/HANDOFF.json")).unwrap();
    assert_eq!(
        (h["trigger"].as_str(), h["context_notes"].as_str()),
        (Some("manual"), Some("mine"))
    );
}

#[test]
fn the_first_critical_records_where_work_stopped_once() {
    let sandbox = project();
    let session = "critical-session";
    sandbox.bridge(session, 30, 0);
    assert!(
        sandbox
            .hook(&post_tool_use(&sandbox, session, None))
            .context_text()
            .starts_with("CONTEXT WARNING")
    );
    assert_eq!(
        read(&sandbox, ".planning/STATE.md"),
        STATE_MD,
        "a warning records nothing"
    );
    sandbox.bridge(session, 20, 0);
    assert!(
        sandbox
            .hook(&post_tool_use(&sandbox, session, None))
            .context_text()
            .starts_with("CONTEXT CRITICAL")
    );
    let today = chrono::Utc::now().format("%Y-%m-%d").to_string();
    let note = format!("context exhaustion at 80% ({today})");
    let after = read(&sandbox, ".planning/STATE.md");
    assert!(after.contains(&format!("stopped_at: \"{note}\"\n")), "{after}");
    assert!(after.contains(&format!("\nStopped at: {note}\n")), "{after}");
    // Later criticals do not rewrite it.
    sandbox.write(".planning/STATE.md", STATE_MD);
    for _ in 0..6 {
        sandbox
            .hook(&post_tool_use(&sandbox, session, None))
            .assert_hook_contract();
    }
    assert_eq!(read(&sandbox, ".planning/STATE.md"), STATE_MD);
}

#[test]
fn a_breadcrumb_is_consumed_only_by_the_session_that_wrote_it() {
    let sandbox = project();
    let mut pre = session_start(&sandbox, "s-1", "compact");
    pre["hook_event_name"] = json!("PreCompact");
    sandbox.hook(&pre).assert_hook_contract();
    let h: Value = serde_json::from_str(&read(&sandbox, ".planning/HANDOFF.json")).unwrap();
    assert_eq!(h["session_id"], "s-1");

    let other = sandbox.hook(&session_start(&sandbox, "s-2", "startup"));
    other.assert_hook_contract();
    assert!(other.stdout.contains("Position: Phase 3 (Cart)"), "{other:?}");
    assert!(
        sandbox.project.join(".planning/HANDOFF.json").exists(),
        "another session leaves the breadcrumb"
    );
    assert!(session_start_context(&sandbox, "compact").is_some());
    assert!(
        !sandbox.project.join(".planning/HANDOFF.json").exists(),
        "its own session consumes it"
    );
}

/// Claude Code's cap on hook context, in UTF-16 code units (what it measures).
const CONTEXT_CAP_UNITS: usize = 10_000;

#[test]
fn an_emoji_heavy_brief_is_fitted_by_whole_lines_keeping_what_matters() {
    let sandbox = project();
    let decisions: Vec<Value> = (0..300)
        .map(|i| json!({"decision": format!("🚀 Decision {i}: keep the 🛒 cart in 🗄️ Postgres ✅"), "phase": 3}))
        .collect();
    let notes: Vec<String> = (0..40).map(|i| format!("📝 note line {i} 🎉🎉")).collect();
    let handoff = json!({"version": "1.0", "timestamp": "2026-11-29T18:00:00Z", "phase": 3, "phase_name": "Cart",
        "plan": 2, "status": "paused",
        "blockers": [{"description": "🔥 Staging is down 🔥", "type": "external"},
                     {"description": "🔑 The 🧾 invoice API key is missing", "type": "human_action"}],
        "human_actions_pending": [{"action": "🔐 Rotate the API key", "context": "leaked 😱", "blocking": true}],
        "decisions": decisions, "context_notes": notes.join("\n"),
        "next_action": "🛠️ Finish the DELETE /cart/:id route"});
    sandbox.write(".planning/HANDOFF.json", &handoff.to_string());

    let text = session_start_context(&sandbox, "startup").expect("a brief");
    let units = text.encode_utf16().count();
    assert!(
        units <= CONTEXT_CAP_UNITS,
        "{units} UTF-16 units is over Claude Code's cap"
    );
    for kept in [
        "🔥 Staging is down 🔥",
        "🔑 The 🧾 invoice API key is missing",
        "🔐 Rotate the API key — leaked 😱 (blocking)",
        "Next action: 🛠️ Finish the DELETE /cart/:id route",
        "Position: Phase 3 (Cart), plan 2",
    ] {
        assert!(text.contains(kept), "{kept:?} was left out:\n{text}");
    }
    let last = text.lines().last().unwrap();
    assert!(
        last.starts_with("[Left out to fit Claude Code's limit on hook context: Decisions (the last ")
            && last.contains("`baton resume --keep` prints the whole brief."),
        "{last}"
    );
    // Every other line is a whole line of the full brief.
    let full = ok(&sandbox.run(&["resume", "--keep"], b"")).to_owned();
    for line in text
        .lines()
        .skip(1)
        .filter(|line| *line != last && !line.starts_with("Once picked up"))
    {
        assert!(
            full.lines().any(|whole| whole == line),
            "{line:?} is not a whole line of:\n{full}"
        );
    }
    assert!(text.contains("🚀 Decision 0:"), "the first decisions stay:\n{text}");
}
