//! HANDOFF.json and STATE.md as gsd-core writes them: `uncommitted_files` as `git status
//! --porcelain` lines, `async_jobs` and `.planning/async-jobs/*.json` manifests (a plan waiting
//! on a live job), the task in progress among `completed_tasks`, and STATE.md's own keys kept
//! through pause and resume, with `paused_at` deleted at the end of the pause.

use serde_json::{Value, json};

use super::{json_of, ok, project, read};
use crate::common::gsd;

/// A handoff as gsd-core's pause-work writes it (its workflow's schema).
fn gsd_core_handoff() -> Value {
    json!({
        "version": "1.0", "timestamp": "2026-11-29T18:00:00Z", "phase": "3", "phase_name": "Cart",
        "phase_dir": ".planning/phases/03-cart", "plan": "2", "task": 2, "total_tasks": 3, "status": "paused",
        "completed_tasks": [
            {"id": 1, "name": "Cart model", "status": "done", "commit": "abc1234"},
            {"id": 2, "name": "Wire the DELETE route", "status": "in_progress", "progress": "handler written"}
        ],
        "remaining_tasks": [{"id": 3, "name": "UI", "status": "not_started"}],
        "blockers": [], "human_actions_pending": [], "decisions": [],
        "async_jobs": [{"manifest": ".planning/async-jobs/train.json", "job_id": "train", "backend": "slurm",
                        "status": "running", "submit_command": "sbatch train.sh", "submitted_at": "2026-11-29T17:00:00Z",
                        "expected_artifacts": ["model.bin"], "verification_command": "test -f model.bin",
                        "resume_command": "gsd-tools job resume train"}],
        "uncommitted_files": [" M src/cart.rs", "?? src/new.rs"],
        "next_action": "Finish the DELETE route", "context_notes": null
    })
}

const MANIFEST: &str = r#"{"version":"1.0","plan_id":"03-02","phase":"3","job_id":"train","backend":"slurm",
  "submit_command":"sbatch train.sh","status":"running","expected_artifacts":["model.bin"],
  "verification_command":"test -f model.bin","resume_command":"gsd-tools job resume train",
  "submitted_at":"2026-11-29T17:00:00Z","terminal_details":null}"#;

#[test]
fn porcelain_lines_compare_by_path() {
    let sandbox = project();
    gsd::git_init(&sandbox);
    sandbox.write("src/cart.rs", "// changed\n");
    sandbox.write("src/new.rs", "// new\n");
    sandbox.write(".planning/HANDOFF.json", &gsd_core_handoff().to_string());
    let brief = json_of(&sandbox.run(&["resume", "--json", "--keep"], b""));
    let check = &brief["uncommitted"];
    assert_eq!(check["unchanged"], json!(["src/cart.rs", "src/new.rs"]), "{check}");
    assert_eq!(
        (check["now_clean"].clone(), check["new"].clone()),
        (json!([]), json!([])),
        "{check}"
    );
}

#[test]
fn the_task_in_progress_is_read_from_completed_tasks() {
    let sandbox = project();
    sandbox.write(".planning/HANDOFF.json", &gsd_core_handoff().to_string());
    let text = ok(&sandbox.run(&["resume", "--keep"], b"")).to_owned();
    assert!(text.contains("In progress: Wire the DELETE route"), "{text}");
}

#[test]
fn external_jobs_come_first_survive_a_pause_and_make_a_plan_wait() {
    let sandbox = project();
    sandbox.write(".planning/HANDOFF.json", &gsd_core_handoff().to_string());
    // Plan 03-02 (the next plan of phase 3) is with a job that still runs.
    sandbox.write(".planning/async-jobs/train.json", MANIFEST);
    let progress = json_of(&sandbox.run(&["progress", "--json"], b""));
    let after = progress["next_action"]["reason"].as_str().unwrap();
    assert!(after.contains("/gsd-resume-work"), "{progress:#}");
    std::fs::remove_file(sandbox.project.join(".planning/HANDOFF.json")).unwrap();
    let progress = json_of(&sandbox.run(&["progress", "--json"], b""));
    let next = &progress["next_action"];
    assert_eq!(next["command"], "/gsd-resume-work", "{next}");
    assert!(
        next["reason"]
            .as_str()
            .unwrap()
            .contains("03-02 is waiting on external job train"),
        "{next}"
    );

    // A pause that rewrites the handoff keeps the job, and resume shows it before anything else.
    sandbox.write(".planning/HANDOFF.json", &gsd_core_handoff().to_string());
    std::fs::remove_file(sandbox.project.join(".planning/async-jobs/train.json")).unwrap();
    ok(&sandbox.run(&["pause", "--note", "waiting for the training run"], b""));
    let handoff: Value = serde_json::from_str(&read(&sandbox, ".planning/HANDOFF.json")).unwrap();
    assert_eq!(handoff["async_jobs"][0]["job_id"], "train", "{handoff:#}");
    let text = ok(&sandbox.run(&["resume", "--keep"], b"")).to_owned();
    let jobs = text.find("EXTERNAL JOBS").unwrap_or_else(|| panic!("{text}"));
    let position = text.find("Position:").unwrap();
    assert!(jobs < position && text[..jobs].lines().count() <= 2, "{text}");
    assert!(text.contains("external job train on slurm: running"), "{text}");
}

#[test]
fn state_md_keeps_gsd_cores_keys_and_loses_paused_at_on_resume() {
    let sandbox = project();
    let state = gsd::STATE_MD.replacen(
        "---\n",
        "---\ngsd_state_version: \"1.0\"\nstate_head: 4f2a9c1\nlast_activity_desc: Completed 03-01-PLAN.md\n",
        1,
    );
    let state = state.replacen("gsd_state_version: 1.0\n", "", 1);
    sandbox.write(".planning/STATE.md", &state);
    ok(&sandbox.run(&["pause"], b""));
    let paused = read(&sandbox, ".planning/STATE.md");
    assert!(paused.contains("paused_at: \""), "{paused}");
    ok(&sandbox.run(&["resume"], b""));
    let resumed = read(&sandbox, ".planning/STATE.md");
    for kept in [
        "gsd_state_version: \"1.0\"\n",
        "state_head: 4f2a9c1\n",
        "last_activity_desc: Completed 03-01-PLAN.md\n",
    ] {
        assert!(resumed.contains(kept), "{kept:?} lost: {resumed}");
    }
    assert!(
        !resumed.contains("paused_at"),
        "paused_at is deleted, not nulled: {resumed}"
    );
}
