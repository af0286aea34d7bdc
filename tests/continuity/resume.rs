//! `baton resume`: the brief from the handoff (blockers and human actions first) or the
//! state files, GSD's own handoffs, and the archive once resumed.

use serde_json::{Value, json};

use super::{GSD_HANDOFF, json_of, ok, project, read, session_start_context};
use crate::common::gsd::{self, STATE_MD};
use crate::common::*;

#[test]
fn resume_puts_blockers_and_human_actions_first_then_archives() {
    let sandbox = project();
    gsd::git_init(&sandbox);
    sandbox.write("src/cart.rs", "// wip\n");
    sandbox.write("src/old.rs", "// wip\n");
    ok(&sandbox.run(
        &[
            "pause",
            "--human-action",
            "Approve the sandbox account",
            "--note",
            "DELETE next",
        ],
        b"",
    ));
    // After the pause: one file committed, another newly changed.
    std::fs::remove_file(sandbox.project.join("src/old.rs")).unwrap();
    sandbox.write("src/new.rs", "// new\n");

    let out = sandbox.run(&["resume"], b"");
    let text = ok(&out);
    let blockers = text.find("BLOCKERS:").expect("blockers section");
    let actions = text.find("HUMAN ACTIONS PENDING:").expect("human actions section");
    let position = text.find("Position:").expect("position");
    assert!(blockers < position && actions < position, "{text}");
    assert!(text.contains("Approve the sandbox account (blocking)"), "{text}");
    assert!(text.contains("Position: Phase 3 (Cart), plan 03-02"), "{text}");
    assert!(text.contains("In progress: Plan 03-02"), "{text}");
    assert!(
        text.contains("src/old.rs: uncommitted at the pause, clean now"),
        "{text}"
    );
    assert!(text.contains("src/new.rs: uncommitted now, not at the pause"), "{text}");
    assert!(
        !text.contains("HANDOFF.json: uncommitted"),
        "baton's own files are not reported: {text}"
    );
    assert!(!sandbox.project.join(".planning/HANDOFF.json").exists());
    let archived: Vec<String> = std::fs::read_dir(sandbox.project.join(".planning/handoffs"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(archived.len(), 2, "{archived:?}");
    assert!(
        !read(&sandbox, ".planning/STATE.md").contains("paused_at: \""),
        "the pause is over"
    );

    // With the handoff archived, resume falls back to the state files and says so.
    let text = sandbox.run(&["resume", "--json"], b"");
    let v = json_of(&text);
    assert_eq!(v["source"], "state");
    assert_eq!(v["fallback_reason"], "there is no .planning/HANDOFF.json");
}

#[test]
fn a_truncated_handoff_falls_back_to_the_state_files_and_is_kept() {
    let sandbox = project();
    let truncated =
        "{\"version\":\"1.0\",\"timestamp\":\"2026-11-30T10:00:00Z\",\"phase\":\"3\",\"blockers\":[{\"descr";
    sandbox.write(".planning/HANDOFF.json", truncated);
    let text = sandbox.run(&["resume"], b"");
    let text = ok(&text);
    assert!(
        text.starts_with("Resuming from the state files, because the handoff could not be used:"),
        "{text}"
    );
    assert!(text.contains("HANDOFF.json: not a readable handoff"), "{text}");
    assert!(
        text.contains("- [technical] Payment provider sandbox account not approved yet"),
        "{text}"
    );
    assert_eq!(
        read(&sandbox, ".planning/HANDOFF.json"),
        truncated,
        "the user's file is kept as it was"
    );
}

#[test]
fn resume_with_nothing_to_resume_says_what_to_do() {
    let sandbox = Sandbox::new();
    let out = sandbox.run(&["resume"], b"");
    assert_eq!(out.code, Some(1));
    assert!(
        out.stderr.contains("nothing to resume") && out.stderr.contains("baton pause"),
        "{}",
        out.stderr
    );
}

#[test]
fn a_gsd_handoff_is_read_despite_nulls_and_text_tasks() {
    let sandbox = project();
    sandbox.write(".planning/HANDOFF.json", GSD_HANDOFF);
    let v = json_of(&sandbox.run(&["resume", "--json", "--keep"], b""));
    assert_eq!(v["source"], "handoff", "{v}");
    assert_eq!(v["in_progress"], "Wire the DELETE route");
    assert_eq!(v["human_actions"][0], "Rotate the API key — leaked");
}

#[test]
fn fields_baton_does_not_know_are_kept_and_numeric_ids_stay_numbers() {
    let sandbox = project();
    let given = json!({"git_branch": "feat/cart", "resume_command": "/gsd:resume-work",
        "remaining_tasks": [{"id": 7, "name": "Routes", "status": "in_progress", "files": ["src/routes.rs"]}],
        "blockers": [{"description": "Flaky CI", "type": "external", "owner": "ops"}]});
    ok(&sandbox.run(&["pause", "--json-in"], given.to_string().as_bytes()));
    let h: Value = serde_json::from_str(&read(&sandbox, ".planning/HANDOFF.json")).unwrap();
    assert_eq!(h["git_branch"], "feat/cart");
    assert_eq!(h["resume_command"], "/gsd:resume-work");
    assert_eq!(h["remaining_tasks"][0]["id"], 7);
    assert_eq!(h["remaining_tasks"][0]["files"], json!(["src/routes.rs"]));
    assert_eq!(h["blockers"][0]["owner"], "ops");
}

#[test]
fn resuming_from_the_state_files_ends_the_pause() {
    let sandbox = project();
    let paused = STATE_MD
        .replace(
            "status: executing\n",
            "status: executing\npaused_at: \"2026-11-29T18:00:00Z\"\n",
        )
        .replace(
            "Resume file: None",
            "Resume file: .planning/phases/03-cart/.continue-here.md",
        );
    sandbox.write(".planning/STATE.md", &paused);
    assert!(
        session_start_context(&sandbox, "startup").is_some(),
        "paused work is announced"
    );
    let v = json_of(&sandbox.run(&["resume", "--json"], b""));
    assert_eq!(v["source"], "state");
    let after = read(&sandbox, ".planning/STATE.md");
    assert!(!after.contains("paused_at"), "deleted, not set to null: {after}");
    assert!(after.contains("\nResume file: None\n"), "{after}");
    assert_eq!(session_start_context(&sandbox, "startup"), None, "not paused forever");

    // After a resume from a handoff too, the archived page is no longer the resume file.
    ok(&sandbox.run(&["pause"], b""));
    assert!(read(&sandbox, ".planning/STATE.md").contains("Resume file: .planning/phases/03-cart/.continue-here.md"));
    ok(&sandbox.run(&["resume"], b""));
    assert!(read(&sandbox, ".planning/STATE.md").contains("\nResume file: None\n"));
}
