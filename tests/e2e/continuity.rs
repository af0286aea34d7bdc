//! Session continuity with the real client: a pause recorded in one session reaches the
//! model at the start of the next one (blockers and human actions first), and the pause
//! slash command, run through the client, writes the handoff.

use std::process::Command;

use serde_json::{Value, json};

use super::client::{baton_command, run_headless};
use super::mock::{Mock, Reply};
use super::sandbox::Sandbox;

const BLOCKER: &str = "payment provider sandbox account not approved";
const HUMAN_ACTION: &str = "Approve the sandbox account in the provider dashboard";

/// A small GSD project: STATE.md, a roadmap and one phase with a plan half done.
fn gsd_project(sandbox: &Sandbox) {
    let planning = sandbox.project.join(".planning");
    let phase = planning.join("phases/01-cart");
    std::fs::create_dir_all(&phase).unwrap();
    std::fs::write(
        planning.join("STATE.md"),
        "---\nmilestone: v1.0\nstatus: executing\ncurrent_phase: 1\n---\n# Project State\n\n## Session Continuity\n\nLast session: never\n",
    )
    .unwrap();
    std::fs::write(
        planning.join("ROADMAP.md"),
        "# Roadmap\n\n- [ ] **Phase 1: Cart** - add to cart\n",
    )
    .unwrap();
    for file in ["01-01-PLAN.md", "01-01-SUMMARY.md", "01-02-PLAN.md"] {
        std::fs::write(phase.join(file), "x\n").unwrap();
    }
}

/// Runs baton in the sandbox's project with its HOME and TMPDIR.
fn baton(sandbox: &Sandbox, args: &[&str]) -> std::process::Output {
    let out = Command::new(crate::common::baton_bin())
        .args(args)
        .current_dir(&sandbox.project)
        .env("HOME", &sandbox.home)
        .env("TMPDIR", &sandbox.tmp)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "baton {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

#[test]
fn a_pause_reaches_the_model_at_the_start_of_the_next_session() {
    let sandbox = Sandbox::new("round-trip");
    gsd_project(&sandbox);
    baton(
        &sandbox,
        &[
            "pause",
            "--blocker",
            &format!("human_action: {BLOCKER}"),
            "--human-action",
            HUMAN_ACTION,
            "--note",
            "cart API half done",
        ],
    );

    let hook = json!([{"hooks": [{"type": "command", "command": baton_command("hook"), "timeout": 10}]}]);
    sandbox.project_settings(&json!({"hooks": {"SessionStart": hook}}));
    let mock = Mock::start(|_| Reply::text(20_000, "Resuming."));
    run_headless(&sandbox, &mock, "continue where we left off");

    let turns = mock.turns_of("continue where we left off");
    let first = turns.first().expect("the new session asked the model");
    let told = first.all_texts().join("\n");
    let blocker = told
        .find(BLOCKER)
        .unwrap_or_else(|| panic!("the blocker did not reach the model:\n{told}"));
    let action = told
        .find(HUMAN_ACTION)
        .unwrap_or_else(|| panic!("the human action did not reach the model:\n{told}"));
    let position = told
        .find("Position: Phase 1 (Cart), plan 01-02")
        .unwrap_or_else(|| panic!("no position:\n{told}"));
    assert!(
        blocker < position && action < position,
        "blockers and human actions come first:\n{told}"
    );
    assert!(told.contains("cart API half done"), "{told}");
}

#[test]
fn the_pause_slash_command_run_through_the_client_writes_the_handoff() {
    let sandbox = Sandbox::new("slash-pause");
    gsd_project(&sandbox);
    baton(&sandbox, &["install", "--project", sandbox.project.to_str().unwrap()]);
    let mock = Mock::start(|_| Reply::text(20_000, "Saved."));
    run_headless(&sandbox, &mock, "/baton:pause-work wiring the cart API");

    let handoff = sandbox.project.join(".planning/HANDOFF.json");
    let h: Value = serde_json::from_str(&std::fs::read_to_string(&handoff).unwrap_or_else(|e| {
        let asked: Vec<String> = mock.requests().iter().flat_map(|r| r.all_texts()).collect();
        panic!("no handoff ({e}); the model was told:\n{}", asked.join("\n---\n"))
    }))
    .unwrap();
    assert_eq!(h["generator"], "baton");
    assert_eq!(h["plan"], "01-02");
    assert_eq!(h["context_notes"], "wiring the cart API");
    // The command's output (baton's own summary) was inlined into the prompt.
    let told: Vec<String> = mock.requests().iter().flat_map(|r| r.all_texts()).collect();
    assert!(
        told.iter().any(|t| t.contains("Paused: Phase 1 (Cart), plan 01-02.")),
        "{told:#?}"
    );
}

/// Claude Code replaces hook context over 10,000 UTF-16 units by a 2 KB preview inside
/// `<persisted-output>`; an emoji-heavy brief must arrive fitted, not replaced.
#[test]
fn an_emoji_heavy_brief_reaches_the_model_whole_not_as_a_preview() {
    const NEXT: &str = "🛠️ Finish the DELETE /cart/:id route";
    let sandbox = Sandbox::new("emoji-brief");
    gsd_project(&sandbox);
    let decisions: Vec<Value> = (0..300)
        .map(|i| json!({"decision": format!("🚀 Decision {i}: keep the 🛒 cart in 🗄️ Postgres ✅")}))
        .collect();
    let handoff = json!({"version": "1.0", "timestamp": "2026-11-29T18:00:00Z", "phase": "1", "phase_name": "Cart",
        "blockers": [{"description": BLOCKER, "type": "human_action"}],
        "human_actions_pending": [{"action": HUMAN_ACTION, "blocking": true}],
        "decisions": decisions, "next_action": NEXT});
    std::fs::write(sandbox.project.join(".planning/HANDOFF.json"), handoff.to_string()).unwrap();
    let hook = json!([{"hooks": [{"type": "command", "command": baton_command("hook"), "timeout": 10}]}]);
    sandbox.project_settings(&json!({"hooks": {"SessionStart": hook}}));
    let mock = Mock::start(|_| Reply::text(20_000, "Resuming."));
    run_headless(&sandbox, &mock, "continue where we left off");

    let turns = mock.turns_of("continue where we left off");
    let told = turns
        .first()
        .expect("the new session asked the model")
        .all_texts()
        .join("\n");
    assert!(
        !told.contains("<persisted-output>"),
        "the client replaced the brief by a preview:\n{told}"
    );
    for expected in [
        BLOCKER,
        HUMAN_ACTION,
        NEXT,
        "🚀 Decision 0:",
        "[Left out to fit Claude Code's limit",
    ] {
        assert!(told.contains(expected), "{expected:?} did not reach the model:\n{told}");
    }
}
