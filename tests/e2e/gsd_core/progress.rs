//! Progress and the next step: baton's equal gsd-core's own on projects made with gsd-core's
//! tools, with and without a verification (passed, gaps found, waiting for a person), in a
//! workstream and with milestone-prefixed phase ids. gsd-core's own next step is what its
//! progress workflow (`workflows/progress.md`, "route") makes of `roadmap analyze` and
//! `verification status`: the first phase with plans not yet summarised is executed; else the
//! current phase's verification status picks the command (missing or unknown: execute-phase,
//! gaps found: plan-phase --gaps, waiting for a person: verify-work); else the next phase is
//! discussed (or planned, once it has a CONTEXT); else the milestone is completed. A phase's
//! plans are its PLAN files (`plan_count`), not the plans its roadmap entry lists.

use serde_json::Value;

use super::super::sandbox::Sandbox;
use super::{baton_json, project_with_phase_1_executed, tools, verify_phase_1, write};

/// gsd-core's completed phases and next step, its phase numbers written as baton writes
/// them (`01` → `1`, `01-02` → `1-02`).
fn gsd_cores_own(sandbox: &Sandbox, ws_flag: &str) -> (u64, String) {
    let roadmap = tools(sandbox, &["roadmap", "analyze"]);
    let phases = roadmap["phases"]
        .as_array()
        .unwrap_or_else(|| panic!("roadmap analyze lists no phases: {roadmap}"));
    let count = |p: &Value, key: &str| p[key].as_u64().unwrap_or(0);
    let number = |p: &Value| p["number"].as_str().unwrap().to_owned();
    let completed = roadmap["completed_phases"]
        .as_u64()
        .unwrap_or_else(|| panic!("roadmap analyze counts no phases: {roadmap}"));
    let phase = |n: &Value| phases.iter().find(|p| p["number"] == *n).cloned();
    let next = if let Some(p) = phases
        .iter()
        .find(|p| count(p, "plan_count") > count(p, "summary_count"))
    {
        format!("/gsd-execute-phase {}", number(p))
    } else if let Some(current) = phase(&roadmap["current_phase"]) {
        let found = tools(sandbox, &["find-phase", &number(&current)]);
        let dir = found["directory"].as_str().expect("the current phase has a directory");
        let verification = tools(sandbox, &["verification", "status", dir]);
        let n = number(&current);
        match verification["status"].as_str().unwrap() {
            "missing" | "unknown" => format!("/gsd-execute-phase {n}"),
            "gaps_found" => format!("/gsd-plan-phase {n} --gaps"),
            "human_needed" | "stale" => format!("/gsd-verify-work {n}"),
            other => panic!("phase {n} is current with its verification {other}: {verification}"),
        }
    } else if let Some(next) = phase(&roadmap["next_phase"]) {
        let command = if next["has_context"] == true {
            "plan-phase"
        } else {
            "discuss-phase"
        };
        format!("/gsd-{command} {}", number(&next))
    } else {
        "/gsd-complete-milestone".to_owned()
    };
    (completed, format!("{}{ws_flag}", normalised(&next)))
}

/// A command's phase numbers as baton writes them.
fn normalised(command: &str) -> String {
    let words: Vec<String> = command
        .split_whitespace()
        .map(|word| {
            let parts: Vec<&str> = word.split('-').collect();
            let numeric = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
            match parts.as_slice() {
                [n] if numeric(n) => n.parse::<u32>().unwrap().to_string(),
                [m, n] if numeric(m) && numeric(n) => format!("{}-{n}", m.parse::<u32>().unwrap()),
                _ => word.to_owned(),
            }
        })
        .collect();
    words.join(" ")
}

/// baton's completed phases and next step.
fn batons(sandbox: &Sandbox) -> (u64, String, Value) {
    let progress = baton_json(sandbox, &["progress"]);
    let completed = progress["progress"]["completed_phases"].as_u64().unwrap();
    let next = progress["next_action"]["command"].as_str().unwrap().to_owned();
    (completed, next, progress)
}

fn assert_same(sandbox: &Sandbox, ws_flag: &str, expected_next: &str) -> Value {
    let (gsd_completed, gsd_next) = gsd_cores_own(sandbox, ws_flag);
    let (completed, next, progress) = batons(sandbox);
    assert_eq!(gsd_next, expected_next, "gsd-core's own next step");
    assert_eq!(
        (completed, next.as_str()),
        (gsd_completed, gsd_next.as_str()),
        "baton vs gsd-core: {progress:#}"
    );
    progress
}

#[test]
fn every_plan_summarised_without_a_verification_is_not_done() {
    let sandbox = Sandbox::new("gsd-core-unverified");
    project_with_phase_1_executed(&sandbox);
    let progress = assert_same(&sandbox, "", "/gsd-execute-phase 1");
    let reason = progress["next_action"]["reason"].as_str().unwrap();
    assert!(reason.contains("not verified"), "{reason}");
    // Two plans done of three steps (the verification is the third) in one of three phases.
    assert_eq!(progress["progress"]["percent"], 22, "{progress:#}");
}

#[test]
fn a_plan_the_roadmap_lists_before_its_file_is_written_is_no_plan_yet() {
    let sandbox = Sandbox::new("gsd-core-listed-plan");
    project_with_phase_1_executed(&sandbox);
    // The roadmap lists phase 2's first plan; no 02-01-PLAN.md is written yet.
    let roadmap = sandbox.project.join(".planning/ROADMAP.md");
    let text = std::fs::read_to_string(&roadmap).unwrap().replace(
        "### Phase 2: Cart\n**Goal**: Users can fill a cart\n",
        "### Phase 2: Cart\n**Goal**: Users can fill a cart\n**Plans**: 1 plan\n\nPlans:\n- [ ] 02-01: Cart model\n",
    );
    std::fs::write(&roadmap, text).unwrap();
    let plan_count = |sandbox: &Sandbox| {
        let analyzed = tools(sandbox, &["roadmap", "analyze"]);
        let phase_2 = analyzed["phases"]
            .as_array()
            .and_then(|all| all.iter().find(|p| p["number"] == "2").cloned())
            .unwrap_or_else(|| panic!("roadmap analyze has no phase 2: {analyzed}"));
        phase_2["plan_count"].clone()
    };
    assert_eq!(plan_count(&sandbox), 0, "gsd-core counts PLAN files");
    let progress = assert_same(&sandbox, "", "/gsd-execute-phase 1");
    assert_eq!(progress["progress"]["total_plans"], 2, "{progress:#}");
    // With phase 2's directory made and still no PLAN file, the same.
    tools(&sandbox, &["scaffold", "phase-dir", "--phase", "2", "--name", "cart"]);
    assert_eq!(plan_count(&sandbox), 0);
    assert_same(&sandbox, "", "/gsd-execute-phase 1");
    // Its PLAN file written: phase 2 has a plan not summarised, and is executed first.
    write(
        &sandbox,
        ".planning/phases/02-cart/02-01-PLAN.md",
        "---\nphase: 02-cart\nplan: 01\nwave: 1\n---\n# Plan 01\n",
    );
    assert_eq!(plan_count(&sandbox), 1);
    assert_same(&sandbox, "", "/gsd-execute-phase 2");
}

#[test]
fn a_passed_verification_completes_the_phase_and_the_next_one_is_discussed_then_planned() {
    let sandbox = Sandbox::new("gsd-core-verified");
    project_with_phase_1_executed(&sandbox);
    verify_phase_1(&sandbox, "passed");
    tools(&sandbox, &["phase", "complete", "1"]);
    assert_same(&sandbox, "", "/gsd-discuss-phase 2");
    tools(&sandbox, &["scaffold", "phase-dir", "--phase", "2", "--name", "cart"]);
    tools(&sandbox, &["scaffold", "context", "--phase", "2"]);
    assert_same(&sandbox, "", "/gsd-plan-phase 2");
}

#[test]
fn a_verification_with_gaps_or_waiting_for_a_person_says_what_to_run() {
    let sandbox = Sandbox::new("gsd-core-gaps");
    project_with_phase_1_executed(&sandbox);
    verify_phase_1(&sandbox, "gaps_found");
    assert_same(&sandbox, "", "/gsd-plan-phase 1 --gaps");
    let report = ".planning/phases/01-setup/01-VERIFICATION.md";
    tools(
        &sandbox,
        &[
            "frontmatter",
            "set",
            report,
            "--field",
            "status",
            "--value",
            "human_needed",
        ],
    );
    assert_same(&sandbox, "", "/gsd-verify-work 1");
}

#[test]
fn in_a_workstream_its_own_files_are_read() {
    let sandbox = Sandbox::new("gsd-core-workstream");
    project_with_phase_1_executed(&sandbox);
    // Moves the project's planning files into a workstream named after its milestone, then
    // makes that one active.
    let created = tools(&sandbox, &["workstream", "create", "billing"]);
    let moved = created["migration"]["workstream"]
        .as_str()
        .unwrap_or_else(|| panic!("no migration: {created}"));
    tools(&sandbox, &["workstream", "set", moved]);
    assert!(
        !sandbox.project.join(".planning/STATE.md").exists(),
        "STATE.md moved to the workstream"
    );
    let flag = format!(" --ws {moved}");
    let progress = assert_same(&sandbox, &flag, &format!("/gsd-execute-phase 1{flag}"));
    let position = &progress["position"];
    assert_eq!(position["phase"], "1", "{position}");
    let dir = position["phase_dir"].as_str().unwrap();
    assert!(
        dir.ends_with(&format!(".planning/workstreams/{moved}/phases/01-setup")),
        "{dir}"
    );
    // The statusline shows the workstream's state.
    let (status, _) = super::super::gsd::payloads(&sandbox);
    let baton = std::path::Path::new(crate::common::baton_bin());
    let line = super::run_in(
        &sandbox,
        &sandbox.project,
        baton,
        &["statusline"],
        status.to_string().as_bytes(),
    );
    assert!(line.contains("Phase 1"), "{line}");
}

#[test]
fn milestone_prefixed_phase_ids_are_read() {
    let sandbox = Sandbox::new("gsd-core-prefixed");
    project_with_phase_1_executed(&sandbox);
    crate::common::gsd::commit_all(&sandbox.project);
    tools(
        &sandbox,
        &["roadmap", "upgrade", "--convention", "milestone-prefixed", "--apply"],
    );
    assert!(sandbox.project.join(".planning/phases/01-01-setup").is_dir());
    let progress = assert_same(&sandbox, "", "/gsd-execute-phase 1-01");
    let position = &progress["position"];
    assert_eq!(position["phase"], "1-01", "{position}");
    assert!(
        position["phase_dir"].as_str().unwrap().ends_with("01-01-setup"),
        "{position}"
    );
    verify_phase_1_prefixed(&sandbox);
    assert_same(&sandbox, "", "/gsd-discuss-phase 1-02");
}

fn verify_phase_1_prefixed(sandbox: &Sandbox) {
    let report = ".planning/phases/01-01-setup/01-01-VERIFICATION.md";
    write(
        sandbox,
        report,
        "---\nphase: 1-01\nstatus: passed\n---\n# Verification\n",
    );
}
