//! A project made with gsd-core's own tools, then baton's pause, resume and progress: gsd-core's
//! `state validate` and `validate health` still accept it, and its STATE.md keeps gsd-core's
//! own keys.

use super::super::sandbox::Sandbox;
use super::{baton, baton_json, install_for_claude, project_with_phase_1_executed, tools};

/// gsd-core's verdicts on the project: `state validate` valid with no warnings, `validate
/// health` with no errors and nothing new against `before`.
fn assert_gsd_core_accepts(sandbox: &Sandbox, before: &serde_json::Value) {
    let state = tools(sandbox, &["state", "validate"]);
    assert_eq!(
        (state["valid"].as_bool(), state["warnings"].clone()),
        (Some(true), serde_json::json!([])),
        "{state:#}"
    );
    let health = tools(sandbox, &["validate", "health"]);
    assert_eq!(health["errors"], serde_json::json!([]), "{health:#}");
    assert_eq!(health["status"], before["status"], "{health:#}");
    assert_eq!(health["warnings"], before["warnings"], "{health:#}");
}

#[test]
fn gsd_core_still_accepts_the_project_after_batons_pause_resume_and_progress() {
    let sandbox = Sandbox::new("gsd-core-continuity");
    install_for_claude(&sandbox);
    project_with_phase_1_executed(&sandbox);
    let health_before = tools(&sandbox, &["validate", "health"]);
    assert_eq!(health_before["status"], "healthy", "{health_before:#}");
    let state_path = sandbox.project.join(".planning/STATE.md");
    let before = std::fs::read_to_string(&state_path).unwrap();
    assert!(
        before.contains("gsd_state_version: \"1.0\"") && before.contains("last_activity_desc:"),
        "{before}"
    );

    baton(&sandbox, &["pause", "--note", "stopping for the day"]);
    let paused = std::fs::read_to_string(&state_path).unwrap();
    assert!(paused.contains("paused_at: \""), "{paused}");
    assert_gsd_core_accepts(&sandbox, &health_before);
    let loaded = tools(&sandbox, &["state", "json"]);
    assert!(
        loaded["paused_at"].as_str().is_some_and(|p| p.starts_with("20")),
        "{loaded:#}"
    );

    let brief = baton(&sandbox, &["resume"]);
    assert!(brief.contains("Notes: stopping for the day"), "{brief}");
    let resumed = std::fs::read_to_string(&state_path).unwrap();
    assert!(!resumed.contains("paused_at"), "{resumed}");
    for key in [
        "gsd_state_version: \"1.0\"",
        "last_activity_desc:",
        "current_phase_name: Setup",
    ] {
        assert!(resumed.contains(key), "{key} lost: {resumed}");
    }
    // gsd-core reads no "null" pause back.
    let loaded = tools(&sandbox, &["state", "json"]);
    assert!(loaded.get("paused_at").is_none_or(|p| p.is_null()), "{loaded:#}");
    assert_gsd_core_accepts(&sandbox, &health_before);

    let progress = baton_json(&sandbox, &["progress"]);
    assert_eq!(
        progress["next_action"]["command"], "/gsd-execute-phase 1",
        "{progress:#}"
    );
    assert_gsd_core_accepts(&sandbox, &health_before);
}
